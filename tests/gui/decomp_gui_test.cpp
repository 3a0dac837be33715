// `wavescope --scene F --gpus N`: the GUI's wave model over z-slabs. On the CPU backend
// --gpus N means N CPU slabs; the real window under Xvfb runs frames on them (with a
// stencil switch after the first frame, which rebuilds the slabs) and the receivers
// at exit are bit for bit those of one grid. Bad values are refused with exit status 2
// before the window opens, and so is a start under mpirun (the GUI draws in one process).
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "common/shell.hpp"

namespace {

using Result = ws::test::ShellResult;
using ws::test::shell;

std::string shoebox() { return std::string(WS_SOURCE_DIR) + "/assets/scenes/shoebox.json"; }

Result gui(const std::string& args, const std::string& env = "") {
  return shell(env + " WS_GUI_FRAMES=10 WS_GUI_STEPS_PER_FRAME=40 timeout -k 5 300 xvfb-run -a -s "
                  "'-screen 0 1400x880x24' " + std::string(WS_WAVESCOPE_BIN) + " --scene " + shoebox() + " " + args);
}

// "wavescope: receiver R: N samples, last V, bits H" lines, in order.
std::vector<std::string> receiver_lines(const std::string& log) {
  std::vector<std::string> out;
  const std::regex line("wavescope: receiver [0-9]+: [^\n]*");
  for (auto it = std::sregex_iterator(log.begin(), log.end(), line); it != std::sregex_iterator(); ++it)
    out.push_back(it->str());
  return out;
}

TEST(GuiDecomp, CpuSlabsRunFramesAndMatchOneGridBitForBit) {
  if (std::system("command -v xvfb-run > /dev/null 2>&1") != 0) GTEST_SKIP() << "xvfb-run is not installed";
  // A precision switch every 3 frames (float, double, float): each rebuilds the slabs
  // from the gathered field.
  const std::string soak = "WS_GUI_SOAK=3 WS_GUI_SOAK_SWITCHES=precision";
  const Result one = gui("--backend cpu", soak);
  ASSERT_EQ(one.status, 0) << one.output;
  const Result slabs = gui("--backend cpu --gpus 3", soak);
  ASSERT_EQ(slabs.status, 0) << slabs.output;
  EXPECT_NE(slabs.output.find("z-slab decomposition of 75 planes into 3 part(s)"), std::string::npos) << slabs.output;
  EXPECT_NE(slabs.output.find("on the CPU"), std::string::npos) << slabs.output;
  EXPECT_NE(slabs.output.find("soak: 3 switches, 0 failed"), std::string::npos) << slabs.output;
  EXPECT_NE(slabs.output.find("step 240: leggy:1, double"), std::string::npos) << slabs.output;
  EXPECT_NE(slabs.output.find("scene 'shoebox room' at step 400"), std::string::npos) << slabs.output;
  const auto a = receiver_lines(one.output), b = receiver_lines(slabs.output);
  ASSERT_EQ(a.size(), 2u) << one.output;
  EXPECT_EQ(a, b) << one.output << "\n---\n" << slabs.output;
  // The wave has reached the receivers: the comparison is of something.
  EXPECT_EQ(a[0].find("last 0,"), std::string::npos) << a[0];
}

// A kernel switch on slabs is refused in the panel with the reason; the run goes on.
TEST(GuiDecomp, KernelSwitchOnSlabsIsRefusedAndTheRunGoesOn) {
  if (std::system("command -v xvfb-run > /dev/null 2>&1") != 0) GTEST_SKIP() << "xvfb-run is not installed";
  const Result r = shell("WS_GUI_FRAMES=4 WS_GUI_STEPS_PER_FRAME=4 WS_GUI_KERNEL=tiling3d timeout -k 5 300 xvfb-run -a -s "
                      "'-screen 0 1400x880x24' " + std::string(WS_WAVESCOPE_BIN) + " --scene " + shoebox() +
                      " --backend cpu --gpus 2");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("the kernel cannot be switched on a decomposed grid"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("scene 'shoebox room' at step 16"), std::string::npos) << r.output;
}

void expect_refused(const Result& r, const std::string& says) {
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find(says), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("GL_RENDERER"), std::string::npos) << "the window opened:\n" << r.output;
}

TEST(GuiDecomp, BadValuesAreRefusedBeforeTheWindowOpens) {
  const std::string bin = std::string(WS_WAVESCOPE_BIN) + " --scene " + shoebox();
  // 75 planes, radius 1: at most 75 slabs.
  expect_refused(shell(bin + " --backend cpu --gpus 76"), "76 slabs are too many for a grid of 75 z planes");
  expect_refused(shell(bin + " --backend cpu --gpus 0"), "--gpus '0' with --backend cpu is not allowed");
  expect_refused(shell(bin + " --backend cpu --gpus all"), "a positive number of CPU slabs");
  expect_refused(shell(bin + " --backend cpu --gpus 40 --slabs-per-gpu 2"), "80 slabs are too many");
  // More GPUs than present (none here; on a GPU machine fewer than 64).
  const Result many = shell(bin + " --backend cuda --gpus 64");
  EXPECT_EQ(many.status, 2) << many.output;
  EXPECT_TRUE(many.output.find("no CUDA device is present") != std::string::npos ||
              many.output.find("CUDA device(s) present; allowed: 1..") != std::string::npos)
      << many.output;
  expect_refused(shell(std::string(WS_WAVESCOPE_BIN) + " --scene " + WS_SOURCE_DIR +
                    "/assets/scenes/sediment_river_delta.json --backend cpu --gpus 2"),
                 "--gpus applies to wave3d scenes");
}

TEST(GuiDecomp, RefusedUnderMpirun) {
  // What mpirun puts in every rank's environment (launched_by_mpi).
  expect_refused(shell("OMPI_COMM_WORLD_SIZE=2 " + std::string(WS_WAVESCOPE_BIN) + " --scene " + shoebox() +
                    " --backend cpu --gpus 2"),
                 "the GUI draws in one process (started by mpirun)");
  expect_refused(shell("OMPI_COMM_WORLD_SIZE=2 " + std::string(WS_WAVESCOPE_BIN) + " --scene " + shoebox() +
                    " --backend cpu"),
                 "the GUI draws in one process");
}

}  // namespace
