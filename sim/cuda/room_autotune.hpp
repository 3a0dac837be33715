#pragma once
// `--kernel auto` for a room. The autotuner (autotune.hpp) times kernels on the bare grid,
// where the walls, obstacles, sources and receivers cost nothing; in a room they cost a
// single-step kernel launches and passes of their own, while a kernel that runs the whole
// step itself (KernelVariant::multi_step with MultiWalls::All: zstream_fused in one launch
// per step, persistent_l2 in one launch of many) pays for them inside its own. So once the
// bare grid's choice is known, it and each such kernel are timed on the room's own step (a
// scratch solver with the room's boundary plan, sources and receivers, the step graph as
// the solver runs it) and the faster runs the room. The choice is cached like the bare one,
// under a key that adds the room's step (room_problem).
#include <string>
#include <vector>

#include "boundary/boundary_plan.hpp"
#include "cuda/autotune.hpp"
#include "cuda/kernel_registry.hpp"
#include "wave/wave_solver.hpp"

namespace ws {

struct RoomStep {
  const BoundaryPlan* plan = nullptr;
  std::vector<SourceNode> sources;  // sampled sources are timed as silent analytic ones
  std::vector<ReceiverTaps> receivers;
  double courant = 0.0, dt_s = 0.0;
  // Whether the step does anything besides the interior update and fixed walls.
  bool bare() const { return (!plan || plan->empty()) && sources.empty() && receivers.empty(); }
};

// The room's sources as a timing runs them: sampled signals, which read their samples from
// a stream the model feeds, become silent analytic ones of the same cost.
std::vector<SourceNode> sources_for_timing(std::vector<SourceNode> sources);

// The problem the room's choice is cached under: the grid's, with the stencil field
// extended by a digest of the room's boundary nodes, solids, sources and taps
// ("7pt@room:3f2a.../float/160x180x130").
TuneProblem room_problem(const TuneProblem& grid, const RoomStep& step);

// The candidates on the room: the bare grid's choice first, then every whole-step kernel
// that runs the stencil and precision and may be picked by auto, at each of its room_blocks
// (or its preferred block), with its own z chunks and with each of its room_z_waves. The
// whole-step kernels are those that run every room (MultiWalls::All) and the on-chip ones
// of the narrowest classes (ClassFaces, None) when `room_walls` (the room's own class:
// plan_walls_class) lies within theirs; the two-step passes (BoxFaces, WholeFaces) are not
// timed on rooms.
std::vector<TuneCandidate> room_candidates(const TuneChoice& bare, const Stencil& stencil, Precision precision,
                                           KernelVariant::MultiWalls room_walls = KernelVariant::MultiWalls::All);


// The bare choice when the room's step is bare or no whole-step kernel runs the stencil;
// else the faster on the room's step of `bare` and the whole-step kernels (cached). Throws
// like autotune() when no candidate ran.
TuneChoice autotune_room_on_device(const TuneChoice& bare, const Stencil& stencil, Precision precision, int nx,
                                   int ny, int nz, const RoomStep& step, const AutotuneOptions& options);

}  // namespace ws
