// The frame loop's advance (WaveModel::advance_async / finish_advance): steps queued
// on the CUDA solver's stream and waited for a frame later give the same bits as
// advance(), keep every receiver sample, let the watchdog trip at the finish, and
// let any change finish them first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "common/gpu.hpp"
#include "scene_builders.hpp"
#include "decomp/decomposed_solver.hpp"
#include "wave/wave_model.hpp"

namespace ws {
namespace {

WaveScene absorbing_room(Precision p) {
  WaveScene s = testing::cube_scene(0.9, 16000.0, p);
  s.room_m = {0.9, 0.7, 0.5};  // 41 x 32 x 22 nodes: no dimension a multiple of a block
  s.walls.fill(WallCondition::with_absorption(0.2));
  s.sources.push_back({{0.3, 0.3, 0.25}, {SignalKind::RaisedCosine, 1e-4, 1e-3, 0.0, 0.0}});
  s.receivers.push_back({"a", {0.6, 0.4, 0.2}});
  s.receivers.push_back({"b", {0.1, 0.6, 0.4}});
  return s;
}

void expect_same_run(WaveModel& a, WaveModel& b) {
  ASSERT_EQ(a.step(), b.step());
  ASSERT_EQ(a.receiver_history().size(), b.receiver_history().size());
  for (size_t r = 0; r < a.receiver_history().size(); ++r) {
    ASSERT_EQ((long long)b.receiver_history()[r].size(), b.step()) << "receiver " << r;
    EXPECT_EQ(a.receiver_history()[r], b.receiver_history()[r]) << "receiver " << r;
  }
  std::vector<double> ua, pa, ub, pb;
  a.solver().read_state(ua, pa);
  b.solver().read_state(ub, pb);
  EXPECT_EQ(ua, ub);
  EXPECT_EQ(pa, pb);
}

// Frames of several lengths (inside one watchdog interval, across several, one step)
// advanced by `sync` and queued by `queued`: the same run.
void expect_queued_frames_match(WaveModel& sync, WaveModel& queued) {
  for (int frame : {300, 7, 1, 600, 256, 513}) {
    sync.advance(frame);
    queued.advance_async(frame);
    EXPECT_TRUE(queued.advance_in_flight()) << "the steps are queued, not run at once";
    EXPECT_EQ(queued.step(), sync.step()) << "step() counts the queued steps";
  }
  queued.finish_advance();
  EXPECT_FALSE(queued.advance_in_flight());
  EXPECT_EQ(queued.solver().metrics().last_steps, 513);
  EXPECT_GT(queued.solver().metrics().steps_per_s, 0.0);
  expect_same_run(sync, queued);
  double peak = 0.0;
  for (double v : sync.receiver_history()[0]) peak = std::max(peak, std::fabs(v));
  EXPECT_GT(peak, 0.0) << "the pulse reached the receiver: the comparison is of something";
}

class AsyncAdvanceGpu : public ::testing::TestWithParam<Precision> {};

TEST_P(AsyncAdvanceGpu, SameBitsAsAdvance) {
  WS_REQUIRE_GPU();
  const WaveScene s = absorbing_room(GetParam());
  WaveModel sync(s, BackendChoice::Cuda), queued(s, BackendChoice::Cuda);
  ASSERT_TRUE(sync.cuda() && queued.cuda());
  ASSERT_EQ(sync.cuda()->kernel().id, queued.cuda()->kernel().id);
  expect_queued_frames_match(sync, queued);
}

TEST_P(AsyncAdvanceGpu, ChangesFinishTheQueuedStepsFirst) {
  WS_REQUIRE_GPU();
  const WaveScene s = absorbing_room(GetParam());
  WaveModel m(s, BackendChoice::Cuda);
  m.advance_async(200);
  m.set_receiver_position(1, {0.2, 0.5, 0.3});
  EXPECT_FALSE(m.advance_in_flight());
  EXPECT_EQ((long long)m.receiver_history()[0].size(), 200);
  m.advance_async(50);
  m.advance(30);  // the synchronous advance finishes the queued one first
  EXPECT_EQ(m.step(), 280);
  EXPECT_EQ((long long)m.receiver_history()[1].size(), 280);
  m.advance_async(40);
  m.reset();  // drops what was queued with the field
  EXPECT_FALSE(m.advance_in_flight());
  EXPECT_EQ(m.step(), 0);
  EXPECT_TRUE(m.receiver_history()[0].empty());
  m.advance_async(10);
  m.finish_advance();
  EXPECT_EQ((long long)m.receiver_history()[0].size(), 10);
}

INSTANTIATE_TEST_SUITE_P(Precisions, AsyncAdvanceGpu, ::testing::Values(Precision::Float, Precision::Double),
                         [](const auto& i) { return std::string(to_string(i.param)); });

// Slabs on GPUs queue the same way (decomposed_solver.hpp's QueuedSlabs): three slabs on
// device 0, queued frames against advance() on the same slabs, bit for bit, with every
// receiver sample; a change finishes the queued steps first.
DecompOptions three_slabs_on_device_0() {
  DecompOptions o;
  o.devices = {0, 0, 0};
  o.slabs_per_process = 3;
  return o;
}

class AsyncAdvanceSlabsGpu : public ::testing::TestWithParam<Precision> {};

TEST_P(AsyncAdvanceSlabsGpu, SameBitsAsAdvance) {
  WS_REQUIRE_GPU();
  const WaveScene s = absorbing_room(GetParam());
  WaveModel sync(s, BackendChoice::Cuda, "", three_slabs_on_device_0());
  WaveModel queued(s, BackendChoice::Cuda, "", three_slabs_on_device_0());
  ASSERT_FALSE(queued.cuda()) << "the model runs on slabs, not one solver";
  expect_queued_frames_match(sync, queued);
  // A change finishes the queued steps first.
  queued.advance_async(50);
  queued.set_receiver_position(1, {0.2, 0.5, 0.3});
  EXPECT_FALSE(queued.advance_in_flight());
  EXPECT_EQ((long long)queued.receiver_history()[0].size(), queued.step());
}

INSTANTIATE_TEST_SUITE_P(Precisions, AsyncAdvanceSlabsGpu, ::testing::Values(Precision::Float, Precision::Double),
                         [](const auto& i) { return std::string(to_string(i.param)); });

// brick_onchip holds the grid on chip for a launch's run (KernelVariant::multi_long_runs):
// the model advances it in chunks of Watchdog::kLongRunInterval steps, so a frame of 1,000
// steps is one launch of the kernel and one of its sources' values (four of each in chunks
// of 256), queued or not, with the same bits either way.
TEST(AsyncAdvanceGpuLongRuns, ABrickFrameIsOneLaunchAndTheSameBits) {
  WS_REQUIRE_GPU();
  const WaveScene s = absorbing_room(Precision::Float);
  WaveModel sync(s, BackendChoice::Cuda, "brick_onchip"), queued(s, BackendChoice::Cuda, "brick_onchip");
  ASSERT_TRUE(sync.cuda() && queued.cuda());
  ASSERT_EQ(queued.cuda()->kernel().id, "brick_onchip");
  ASSERT_TRUE(queued.cuda()->kernel().multi_long_runs);
  for (int frame : {1000, 3, 2100, 1000}) {
    sync.advance(frame);
    queued.advance_async(frame);
  }
  queued.finish_advance();
  expect_same_run(sync, queued);
  double peak = 0.0;
  for (double v : sync.receiver_history()[0]) peak = std::max(peak, std::fabs(v));
  EXPECT_GT(peak, 0.0) << "the pulse reached the receiver: the comparison is of something";
  queued.advance_async(1000);
  queued.finish_advance();
  EXPECT_NEAR(queued.cuda()->step_launches().host_launches_per_step, 2.0 / 1000, 1e-12)
      << "the kernel and its sources' values, once for the frame";
}

// The watchdog's statistics are reduced on the stream at the same steps as in advance()
// and judged at the finish: a DC ramp (a "scheme" source whose signal has a non-zero sum
// in a closed rigid room) stops the model there, with every sample until then kept.
TEST(AsyncAdvanceGpuWatchdog, DcRampTripsAtTheFinish) {
  WS_REQUIRE_GPU();
  WaveScene s = testing::cube_scene(0.5, 8000.0, Precision::Double);
  s.walls.fill(WallCondition::rigid());
  s.sources.push_back({{0.2, 0.2, 0.2}, {SignalKind::RaisedCosine, 1.0, 1e-3, 0.0, 0.0}, SourceQuantity::Scheme,
                       Injection::Value});
  s.receivers.push_back({"r", {0.3, 0.3, 0.3}});
  WaveModel queued(s, BackendChoice::Cuda), sync(s, BackendChoice::Cuda);
  WaveModel queued_slabs(s, BackendChoice::Cuda, "", three_slabs_on_device_0());
  const long long limit = testing::long_run_steps(200000);
  if (limit < 200000) GTEST_SKIP() << "the ramp needs the full run (WS_TEST_MAX_STEPS caps it at " << limit << ")";
  std::string queued_what, sync_what;
  try {
    while (queued.step() < limit) queued.advance_async(333);
    queued.finish_advance();
  } catch (const BlowUpError& e) {
    queued_what = e.what();
  }
  try {
    while (sync.step() < limit) sync.advance(333);
  } catch (const BlowUpError& e) {
    sync_what = e.what();
  }
  ASSERT_FALSE(queued_what.empty()) << "the DC ramp was not caught in the queued advance";
  EXPECT_NE(queued_what.find("DC ramp"), std::string::npos) << queued_what;
  EXPECT_FALSE(queued.advance_in_flight());
  EXPECT_EQ((long long)queued.receiver_history()[0].size(), queued.step());  // nothing recorded is lost
  // The same checks at the same steps: the same message (which names the steps) as advance().
  EXPECT_EQ(queued_what, sync_what);
  // And on slabs, whose statistics are reduced per slab behind the queued steps.
  std::string slabs_what;
  try {
    while (queued_slabs.step() < limit) queued_slabs.advance_async(333);
    queued_slabs.finish_advance();
  } catch (const BlowUpError& e) {
    slabs_what = e.what();
  }
  EXPECT_NE(slabs_what.find("DC ramp"), std::string::npos) << "slabs: " << slabs_what;
  EXPECT_FALSE(queued_slabs.advance_in_flight());
  EXPECT_EQ((long long)queued_slabs.receiver_history()[0].size(), queued_slabs.step());
}

}  // namespace
}  // namespace ws
