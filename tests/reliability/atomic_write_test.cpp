// Output files are written all or nothing (util/atomic_file.hpp): a read-only
// folder, a full disk or a failing writer leaves the old file (or none) and
// no temporary file, and the message names the path.
#include <gtest/gtest.h>

#include "atomic_file.hpp"
#include "reliability/fault_helpers.hpp"

namespace {

using namespace ws::test;
using ws::util::AtomicWriteError;
using ws::util::output_path_error;
using ws::util::write_atomically;
using ws::util::write_atomically_via_path;

TEST(AtomicWrite, WritesTheWholeFileAndNoTemporary) {
  TempDir d("atomic_ok");
  const std::string f = d / "out.csv";
  write_atomically(f, "CSV file", [](std::ostream& o) { o << "a,b\n1,2\n"; });
  EXPECT_EQ(read_file(f), "a,b\n1,2\n");
  EXPECT_TRUE(temp_leftovers(d.path).empty());
}

TEST(AtomicWrite, ReplacingKeepsTheFilesPermissions) {
  TempDir d("atomic_mode");
  const std::string f = d / "out.json";
  std::ofstream(f) << "old";
  fs::permissions(f, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  write_atomically(f, "JSON file", [](std::ostream& o) { o << "[]\n"; });
  EXPECT_EQ(read_file(f), "[]\n");
  EXPECT_EQ(fs::status(f).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST(AtomicWrite, ASymbolicLinkStaysAndItsTargetIsReplaced) {
  TempDir d("atomic_link");
  const std::string target = d / "real.csv", link = d / "link.csv";
  std::ofstream(target) << "old";
  fs::create_symlink("real.csv", link);
  write_atomically(link, "CSV file", [](std::ostream& o) { o << "new"; });
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(target), "new");
}

TEST(AtomicWrite, ADeviceIsWrittenInPlace) {
  write_atomically("/dev/null", "CSV file", [](std::ostream& o) { o << "x"; });
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(AtomicWrite, AFolderIsRefusedByName) {
  TempDir d("atomic_dir");
  try {
    write_atomically(d.path.string(), "CSV file", [](std::ostream& o) { o << "x"; });
    FAIL() << "no exception";
  } catch (const AtomicWriteError& e) {
    EXPECT_NE(std::string(e.what()).find(d.path.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("folder"), std::string::npos) << e.what();
  }
}

TEST(AtomicWrite, AFailingWriterLeavesTheOldFileAndNoTemporary) {
  TempDir d("atomic_throw");
  const std::string f = d / "frame.png";
  std::ofstream(f) << "old picture";
  EXPECT_THROW(write_atomically_via_path(f, "PNG file",
                                         [](const std::string& tmp) {
                                           std::ofstream(tmp) << "half a pict";
                                           throw std::runtime_error("libpng failed");
                                         }),
               std::runtime_error);
  EXPECT_EQ(read_file(f), "old picture");
  EXPECT_TRUE(temp_leftovers(d.path).empty());
}

TEST(AtomicWrite, AReadOnlyFolderLeavesNothingAndNamesThePath) {
  TempDir d("atomic_ro");
  const std::string f = d / "receivers.csv";
  fs::permissions(d.path, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                              fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  const ChildResult r = in_child([&](std::string& msg) {
    if (!drop_to_nobody()) return 98;
    try {
      write_atomically(f, "CSV file", [](std::ostream& o) { o << "step,time_s\n"; });
    } catch (const AtomicWriteError& e) {
      msg = e.what();
      return 0;
    }
    return 1;
  });
  ASSERT_NE(r.exit_code, 98) << "could not drop root privileges to test a read-only folder";
  ASSERT_EQ(r.exit_code, 0) << "the write into a read-only folder did not fail: " << r.message;
  EXPECT_NE(r.message.find("'" + f + "'"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("Permission denied"), std::string::npos) << r.message;
  EXPECT_FALSE(fs::exists(f));
  EXPECT_TRUE(temp_leftovers(d.path).empty());
}

// The check commands make before they compute: a writable place gives "" and leaves no
// file behind; a missing folder, a folder given as the file and a read-only folder each
// give the message the write itself would, naming the path.
TEST(AtomicWrite, OutputPathErrorProbesWithoutLeavingAFile) {
  TempDir d("atomic_probe");
  const std::string f = d / "r.csv";
  EXPECT_EQ(output_path_error(f, "CSV file"), "");
  EXPECT_FALSE(fs::exists(f));
  EXPECT_TRUE(fs::is_empty(d.path));
  std::ofstream(f) << "previous";
  EXPECT_EQ(output_path_error(f, "CSV file"), "");
  EXPECT_EQ(read_file(f), "previous");
  const std::string missing = (d.path / "no_such_folder" / "r.csv").string();
  EXPECT_EQ(output_path_error(missing, "CSV file"),
            "cannot write CSV file '" + missing + "': cannot create a file in '" + (d / "no_such_folder") +
                "': No such file or directory");
  EXPECT_EQ(output_path_error(d.path.string(), "JSON file"), "cannot write JSON file '" + d.path.string() + "': it is a folder");
  EXPECT_EQ(output_path_error("", "WAV file"), "cannot write WAV file: the path is empty");
  EXPECT_EQ(output_path_error("/dev/null", "CSV file"), "");  // written in place
  fs::permissions(d.path, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                              fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  const ChildResult r = in_child([&](std::string& msg) {
    if (!drop_to_nobody()) return 98;
    msg = output_path_error(d / "new.csv", "CSV file");
    return 0;
  });
  ASSERT_NE(r.exit_code, 98) << "could not drop root privileges to test a read-only folder";
  EXPECT_EQ(r.message, "cannot write CSV file '" + (d / "new.csv") + "': cannot create a file in '" + d.path.string() +
                           "': Permission denied");
  EXPECT_TRUE(temp_leftovers(d.path).empty());
}

// A disk that fills up in the middle of the file: the stream fails, the old
// result stays whole, the temporary file is gone.
TEST(AtomicWrite, AFullDiskKeepsTheOldFileWhole) {
  TempDir d("atomic_full");
  const std::string f = d / "receivers.csv";
  std::ofstream(f) << "the previous run's result\n";
  const ChildResult r = in_child([&](std::string& msg) {
    limit_file_size(4096);
    try {
      write_atomically(f, "CSV file", [](std::ostream& o) {
        for (int i = 0; i < 10000; ++i) o << i << ",0.123456789\n";
      });
    } catch (const AtomicWriteError& e) {
      msg = e.what();
      return 0;
    }
    return 1;
  });
  ASSERT_EQ(r.exit_code, 0) << r.message;
  EXPECT_NE(r.message.find("'" + f + "'"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("File too large"), std::string::npos) << r.message;
  EXPECT_EQ(read_file(f), "the previous run's result\n");
  EXPECT_TRUE(temp_leftovers(d.path).empty());
}

}  // namespace
