// The benchmark tables and `wavescope kernels` keep their columns aligned
// whatever the length of a kernel's name: widths come from the content.
#include <gtest/gtest.h>

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "bench/text_table.hpp"
#include "bench/webb_bench.hpp"

namespace ws::bench {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Where each right-aligned cell of `line` ends, found from the header's titles' ends.
void expect_same_column_ends(const std::string& header, const std::string& row, const std::vector<std::string>& titles) {
  for (const auto& t : titles) {
    const size_t end = header.find(t) + t.size();
    ASSERT_NE(header.find(t), std::string::npos) << t;
    ASSERT_GE(row.size(), end) << row;
    EXPECT_NE(row[end - 1], ' ') << "column '" << t << "' does not end at " << end << " in\n" << header << "\n" << row;
    if (end < row.size()) EXPECT_EQ(row[end], ' ') << "column '" << t << "' runs past " << end << " in\n" << row;
  }
}

TEST(TextTable, ColumnsAreAsWideAsTheirWidestCell) {
  using A = TextTable::Align;
  TextTable t({{"kernel", A::Left}, {"Gpts/s", A::Right}, {"note", A::Left}});
  t.add_row({"zstream_vec", "155.20", "a"});
  t.add_row({std::string(60, 'k'), "7.10", ""});
  t.add_row({"x", "1234567.00"});  // a missing last cell prints as empty
  std::ostringstream os;
  t.print(os);
  const auto l = lines_of(os.str());
  ASSERT_EQ(l.size(), 4u);
  // Left column: 60 wide; the second starts after it and the gap, right-aligned to 10.
  EXPECT_EQ(l[0], "kernel" + std::string(54, ' ') + "  " + "    Gpts/s" + "  note");
  EXPECT_EQ(l[1], "zstream_vec" + std::string(49, ' ') + "  " + "    155.20" + "  a");
  EXPECT_EQ(l[2], std::string(60, 'k') + "  " + "      7.10");  // no trailing blanks
  EXPECT_EQ(l[3], "x" + std::string(59, ' ') + "  " + "1234567.00");
}

TEST(WebbTable, ALongKernelNameKeepsTheColumnsAligned) {
  WebbResult r;
  r.device = "test device";
  r.copy_gbs = 4000.0;
  r.config.steps = kWebbSteps;
  WebbRow a;
  a.id = "tiling3d";
  a.name = "3D tiling";
  a.steps_timed = kWebbSteps;
  a.seconds_full = 12.5;
  a.gpoints_per_s = 33.0;
  a.roofline_fraction = 0.1;
  WebbRow b = a;
  b.id = "a_kernel_with_a_very_long_identifier";
  b.name = "A kernel whose display name is far longer than the old forty-six column field";
  b.ratio_to_tiling3d = 0.5;
  b.k20_s = 218.7;
  r.rows = {a, b};
  std::ostringstream os;
  print_webb_table(r, os);
  const auto l = lines_of(os.str());
  size_t h = 0;
  while (h < l.size() && l[h].rfind("Kernel method", 0) != 0) ++h;
  ASSERT_LT(h + 2, l.size()) << os.str();
  for (size_t k = h + 1; k <= h + 2; ++k)
    expect_same_column_ends(l[h], l[k], {"Time (s)", "Ratio", "Gpoints/s", "Roofline", "K20 (s)"});
  EXPECT_EQ(l[h + 2].find(b.name), 0u);
  // The block column starts where its title does, after the longest name and the gap.
  const size_t block_at = l[h].find("block");
  EXPECT_EQ(block_at, b.name.size() + 2);
  for (size_t k = h + 1; k <= h + 2; ++k) EXPECT_TRUE(std::isdigit((unsigned char)l[k][block_at])) << l[k];
}

}  // namespace
}  // namespace ws::bench
