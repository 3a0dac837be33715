#pragma once
// `wavescope bench realtime`: how fast a user's scene runs end to end (walls,
// obstacles, sources, receivers, the GUI's frame loop) beside the same kernel on
// the same grid with nothing else (kernel-only), with the step graph off and on,
// and optionally with the GUI's views drawn every frame. The display is injected
// (`capture_frame`, `draw_frame`) so that this core needs no GL; app/cli/bench_realtime.cpp draws
// the views offscreen through EGL.
//
// With `decomp` (--gpus N) the scene's model runs over z-slabs on several GPUs
// (sim/decomp/) and the kernel-only comparison is a bare decomposed solver of the
// same slabs and kernel; graph on is the slabs' step graph over their GPUs
// (DecomposedSolver, DecompOptions::step_graph), and both are timed by the host
// clock after every device has finished.
//
// Timing: CUDA events on the solver's stream after a warm-up repetition, the
// median of `reps` repetitions. A repetition is `frames` frames of
// `steps_per_frame` steps (the sample rate / 60: a 60 Hz display in real time).
// Gpoints/s counts interior points; fractions are of the copy roofline measured
// in the same run (bench/roofline.hpp), at 3 * sizeof(T) bytes per point.
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "bench/roofline.hpp"
#include "cuda/cuda_solver.hpp"
#include "decomp/decomposed_solver.hpp"
#include "scene/scene.hpp"

namespace ws {
class WaveModel;
}

namespace ws::bench {

struct RealtimeConfig {
  WaveScene scene;
  std::string scene_label;     // for the table and JSON (the file name)
  std::string kernel;          // registry id, "" for the default, "auto" for the autotuned choice
                               // (on slabs: the slabs' default, decomposed_solver.hpp)
  DecompOptions decomp;        // devices: the slabs' GPUs (empty: one GPU, the ordinary solver)
  BlockShape block{0, 0, 0};   // x > 0: the kernel runs this block (tuning; one GPU only)
  int z_waves = 0;             // > 0: the kernel's z chunks aim at this many waves (LaunchOptions)
  long long steps = 0;         // timed steps per repetition (0: 30 frames)
  int steps_per_frame = 0;     // steps per frame (0: the sample rate / 60)
  // > 0: the GUI's automatic steps per frame instead (RunControls::auto_steps): as many
  // steps as the scene runs in this many ms headless, found by a display-off calibration
  // of the frame loop before the timed modes (exclusive with steps_per_frame).
  double frame_budget_ms = 0.0;
  int reps = 5;
  std::vector<bool> graph_modes{false, true};
  std::vector<bool> display_modes{false};
  // The display, in the GUI's order (both needed when display_modes holds true):
  // capture_frame takes the field of `model` for the views (the slices, written on the
  // solver's stream after the steps finished so far), then the next frame's steps are
  // queued, then draw_frame draws the captured views and presents them as the GUI's swap
  // does (the frame may still be drawing while the steps run).
  std::function<void(WaveModel& model)> capture_frame;
  std::function<void()> draw_frame;
  // Waits until every frame drawn so far is on the screen (end of a timed repetition).
  std::function<void()> finish_display;
  std::string display_note;    // what the display path is (renderer, interop mode)
  // The GUI's frame loop queues a frame's steps before drawing the frame (true), or
  // waits for them and then draws (false: the loop before the overlap, for comparison).
  bool overlap = true;
  std::function<bool()> stop_requested;
  bool stopped() const { return stop_requested && stop_requested(); }
};

struct RealtimeRow {
  bool graph = false, display = false;
  int steps_per_frame = 0;
  long long steps = 0;              // timed per repetition
  double seconds = 0.0;             // median repetition
  double steps_per_s = 0.0;
  double realtime_factor = 0.0;     // simulated seconds per wall second
  double frame_ms = 0.0;            // median repetition / frames
  double gpoints_per_s = 0.0;       // end to end
  double kernel_only_gpoints_per_s = 0.0;  // the same kernel, grid and graph mode, bare
  double roofline_fraction = 0.0;          // end to end / copy roofline
  double kernel_only_roofline_fraction = 0.0;
  double end_to_end_over_kernel = 0.0;
  StepLaunches launches;            // of the scene's solver in this mode
};

struct RealtimeResult {
  std::string device, scene_label, kernel_id, precision, stencil, auto_note;
  BlockShape block;
  bool block_uses_z = false;
  int z_waves = 0;  // the launch's LaunchOptions::z_waves (0: the kernel's rule)
  int nx = 0, ny = 0, nz = 0;
  double rate_hz = 0.0, dt_s = 0.0;
  long long boundary_nodes = 0, solid_nodes = 0;
  int sources = 0, receivers = 0;
  double copy_gbs = 0.0;
  double l2_gbs = 0.0;  // the L2 roofline, same run
  double bytes_per_point = 0.0;
  std::string display_note;
  bool overlap = true;  // RealtimeConfig::overlap
  double display_alone_ms = 0.0;  // a frame's capture and draw with no steps (0: not measured)
  double frame_budget_ms = 0.0;   // RealtimeConfig::frame_budget_ms (0: fixed steps per frame)
  // On slabs: how many GPUs and slabs, and where they run (describe_decomposition).
  int gpus = 0, slabs = 0;
  std::string decomposition;
  std::vector<RealtimeRow> rows;
};

// Throws std::invalid_argument for a configuration that cannot run (no modes, reps < 1,
// a display without draw_frame, negative steps, a frame budget that is not a positive
// number of ms or comes with fixed steps per frame).
void validate_realtime_config(const RealtimeConfig& config);
// Runs on the current CUDA device; progress lines go to `log`.
RealtimeResult run_realtime_bench(const RealtimeConfig& config, std::ostream& log);
void print_realtime_table(const RealtimeResult& result, std::ostream& out);
std::vector<BenchRecord> realtime_records(const RealtimeResult& result);

}  // namespace ws::bench
