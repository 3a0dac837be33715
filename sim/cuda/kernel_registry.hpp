#pragma once
// One table of CUDA kernel variants. The GUI's dropdown, `wavescope kernels`,
// the benchmarks and the correctness tests all iterate it, so a new variant is
// one entry in its family's file (sim/cuda/kernels/*.cu).
#include <cuda_runtime.h>

#include <string>
#include <type_traits>
#include <vector>

#include "core/field_layout.hpp"
#include "core/precision.hpp"
#include "cuda/z_waves.hpp"
#include "stencil/stencil.hpp"

namespace ws {

struct BlockShape {
  int x = 32, y = 4, z = 1;
  int threads() const { return x * y * z; }
};

struct LaunchOptions {
  BlockShape block;
  bool readonly_cache = true;  // const __restrict__ + __ldg loads of u^n, or plain loads
  // For kernels that cut z into chunks to have enough blocks (the whole-step kernels,
  // KernelVariant::room_z_waves): the waves of resident blocks the chunks aim at; 0 the
  // kernel's own rule. Fewer waves mean longer chunks (fewer planes loaded twice at the
  // chunks' ends), more waves a shorter tail per wave; which wins depends on the room.
  int z_waves = 0;
};


// One update u^{n+1} = c_0 u^n + lambda^2 sum w_p u^n(x+p) - u^{n-1}, in place.
template <class T>
struct StepArgs {
  T* u_next;          // holds u^{n-1} on entry, u^{n+1} on exit; halo never written
  const T* u_cur;     // u^n
  FieldLayout layout;
  const Stencil* stencil;
  double lambda2;     // (c T / X)^2
};

template <class T>
using LaunchFn = void (*)(const StepArgs<T>&, const LaunchOptions&, cudaStream_t);

template <class T>
struct TiledStepData;  // cuda/tiled_step.hpp

// Several whole steps in one launch (kernels that keep their blocks resident and
// synchronise the grid between steps): u^n in `cur`, u^{n-1} in `prev`; after `steps`
// steps u^{n+steps} is in `cur` when `steps` is even, in `prev` when odd (the solver's
// alternation). `io` holds the walls, solids, sources and receivers grouped by the
// kernel's tiles (TileShape{block.x, block.y, block.z}); nullptr: the bare interior.
// `scratch`: KernelVariant::multi_scratch_fields fields of layout.total elements, zero
// on their halo, that the caller keeps for the kernel (nullptr when it asks for none).
template <class T>
struct MultiStepArgs {
  T* cur;
  T* prev;
  int steps;
  FieldLayout layout;
  const Stencil* stencil;
  double lambda2;
  const TiledStepData<T>* io;
  T* scratch = nullptr;
};

// Returns the kernel launches it issued (the host's work per call).
template <class T>
using MultiLaunchFn = int (*)(const MultiStepArgs<T>&, const LaunchOptions&, cudaStream_t);

struct KernelVariant {
  std::string id;          // stable, for the CLI and JSON ("tiling3d")
  std::string name;        // for people ("3D tiling (Webb fig. 3)")
  std::string family;      // "webb", "fdtd3d", "hamilton", "pencils", ...
  std::string stencils;    // which stencils it runs, for listings ("7pt")
  bool (*supports)(const Stencil&) = nullptr;
  BlockShape default_block;
  // Kernels tuned per stencil (a compiled-in block width, say) give their block
  // here; nullptr: default_block for every stencil. Use preferred_block().
  BlockShape (*block_for)(const Stencil&, Precision) = nullptr;
  // Why this kernel cannot run `s` with a block ("" when it can), for kernels whose
  // blocks are restricted beyond the generic bounds; nullptr: any block.
  std::string (*block_error)(const Stencil&, Precision, const BlockShape&) = nullptr;
  bool block_uses_z = true;  // whether block.z is meaningful (3-D tiling)
  bool has_readonly_toggle = true;
  // Whether a launch may be captured in a CUDA graph and replayed (CudaSolver's
  // step graph): false for launchers that keep host-side state between launches,
  // such as constant-memory tables uploaded only when the stencil changes (a replay
  // would skip the upload another solver's launch made necessary).
  bool graph_capturable = true;
  LaunchFn<float> launch_float = nullptr;
  LaunchFn<double> launch_double = nullptr;
  // Kernels that run whole steps, walls, sources and receivers included, many per
  // launch (MultiStepArgs); the solver, `bench` and the autotuner call these instead of
  // one launch per step. launch_float/launch_double then run one bare step.
  MultiLaunchFn<float> multi_float = nullptr;
  MultiLaunchFn<double> multi_double = nullptr;
  bool multi_step() const { return multi_float != nullptr || multi_double != nullptr; }
  int multi_scratch_fields = 0;  // extra fields the multi-step launch works in (out-of-place passes)
  // Whether the multi-step launch reads its step index and receiver slot from
  // TiledStepData::counter when it is set, so that the solver may capture runs of it in
  // CUDA graphs and replay them (its step graph for whole-step kernels).
  bool multi_replayable = false;
  // Whether a multi-step launch holds the grid on chip for its whole run (loading it and
  // listing its events once a launch): the model then advances it in longer chunks
  // (Watchdog::kLongRunInterval), since each launch's set-up costs 4-5% of a 256-step
  // chunk (docs/benchmarks.md).
  bool multi_long_runs = false;
  // What the multi-step launch runs itself besides fixed walls: every wall and obstacle
  // (All), the six walls of the box, of any kind, without obstacles (BoxFaces), or those
  // walls when each face's points are all boundary nodes or none (WholeFaces: the box's
  // walls as make_boundary_plan lays them out, box_wall_faces); the solver runs other
  // scenes a step at a time with launch_float/launch_double. From the widest to the
  // narrowest: a class runs the scenes of every class after it.
  // ClassFaces: those whole faces when each face class's nodes share their coefficients
  // (box_wall_classes: every boundary node updated from TiledStepData::class_table).
  // None: fixed walls only (no boundary or solid node), with sources and receivers.
  enum class MultiWalls { All, BoxFaces, WholeFaces, ClassFaces, None };
  MultiWalls multi_walls = MultiWalls::All;
  // Whether the multi-step launch reads the step data's grouping by tiles of its block
  // (TiledStepData's *_start arrays: persistent_l2, cluster_onchip). False for kernels that
  // read only what does not depend on the block (the column events, the face classes, the
  // sources: zstream_fused*): the solver then keeps the step data it built for another
  // block, which for a large room takes a noticeable part of a second to build.
  bool multi_uses_tiles = true;
  // Whether the multi-step launch finishes solid nodes through the column events, which
  // leave the enclosed ones out (column_events.hpp): the solver then takes the per-step
  // path for the first two steps after the fields or the walls were set from outside.
  bool multi_uses_column_events = false;
  // > 0: the multi-step launch reads the column events listed per group of the columns
  // that many bytes of a row hold (a thread's 4 floats or 2 doubles for 16), per event
  // (TiledStepData::grp: spread_onchip) or, with multi_plane_records, as one record per
  // group and plane (TiledStepData::planes: zstream_fused_vec); the solver builds its step
  // data with the listing the kernel reads and no other.
  int multi_event_vector_bytes = 0;
  bool multi_plane_records = false;
  // Whether `--kernel auto` may pick it. False for a kernel whose results have not yet
  // been checked on a GPU against the CPU reference (docs/gpu-runs.md lists the runs):
  // it stays available by name, for the benchmarks and the GPU tests.
  bool auto_candidate = true;
  // The blocks `--kernel auto` times this whole-step kernel at on a room (room_autotune.hpp);
  // empty: its preferred block only.
  std::vector<BlockShape> room_blocks;
  // The z-chunk waves (LaunchOptions::z_waves) `--kernel auto` also times it at on a room,
  // at each of its room blocks, beside its own rule; empty: its own rule only.
  std::vector<int> room_z_waves;
  // Why this kernel cannot run a grid of nx * ny * nz interior points in precision p on
  // the current device ("" when it can), for kernels bounded by on-chip memory; the room
  // autotune skips such a candidate before building a solver for it. nullptr: any grid.
  std::string (*grid_error)(int nx, int ny, int nz, Precision p) = nullptr;
  // Called when a solver stops using the kernel (a switch, the solver's end) on the
  // solver's device, after its stream is idle: undoes device-wide state the launches
  // set up (L2 lines marked persisting would otherwise keep part of L2 from every
  // other kernel). nullptr: nothing to undo.
  void (*release)() = nullptr;

  // The launch functions of precision T (nullptr when the kernel has none).
  template <class T>
  LaunchFn<T> launch_for() const {
    if constexpr (std::is_same_v<T, float>) return launch_float;
    else return launch_double;
  }
  template <class T>
  MultiLaunchFn<T> multi_for() const {
    if constexpr (std::is_same_v<T, float>) return multi_float;
    else return multi_double;
  }

  bool has_precision(Precision p) const {
    return p == Precision::Float ? launch_float != nullptr : launch_double != nullptr;
  }
};

// The block a kernel runs `s` with unless the user picks one.
BlockShape preferred_block(const KernelVariant& v, const Stencil& s, Precision p);

// The block to keep when the stencil or precision under a running kernel changes:
// `current` if the kernel still accepts it, else its preferred block for the new pair
// (ztma_leggy compiles its block width in per radius and precision).
BlockShape block_after_switch(const KernelVariant& v, const Stencil& s, Precision p, const BlockShape& current);

class KernelRegistry {
 public:
  static const KernelRegistry& instance();
  const std::vector<KernelVariant>& all() const { return variants_; }
  const KernelVariant* find(const std::string& id) const;
  // Throws std::invalid_argument listing the valid ids.
  const KernelVariant& at(const std::string& id) const;
  std::vector<const KernelVariant*> supporting(const Stencil& s, Precision p) const;

  void add(KernelVariant v);

 private:
  std::vector<KernelVariant> variants_;
};

// Family registration hooks, called in order by KernelRegistry::instance()
// (explicit calls: static initialisers in a static library would be dropped by the linker).
void register_tiling3d_kernels(KernelRegistry& r);
void register_extra_kernel_families(KernelRegistry& r);

}  // namespace ws
