#pragma once
// `--kernel auto` on z-slabs over GPUs of one process. Two things decide how fast a
// decomposed room steps: the kernel every slab runs, and whether each GPU's planes next to
// another GPU are split off as an edge slab, updated first so that the halo travels while
// the rest is updated (DecompOptions::overlap). The split hides the exchange on large parts
// but doubles the launches and copies of a step, which the host issues one step at a time:
// on a few million points a GPU it costs more than it hides (docs/benchmarks.md, run 251).
// So both are chosen by timing the scene's own decomposed step: each split is one autotune
// problem (autotune.hpp: cached per device, driver and build, under the room's key with the
// GPUs and the split added), and the faster of the two choices runs.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cuda/autotune.hpp"
#include "decomp/decomposed_solver.hpp"

namespace ws {

struct SlabTuneChoice {
  std::string kernel;
  bool overlap = true;
  double seconds_per_step = 0.0;
  bool from_cache = false;
  // "auto → zstream_fused_vec, edge slabs split off" (the panel's and the CLI's line).
  std::string label() const;
};

// The kernels timed on slabs: those that run walls, sources and receivers inside their
// step (zstream_fused_vec, zstream_fused) and zstream_cached, where they run the stencil
// and precision, then the slabs' default (slab_kernel); each at its preferred block, as
// the slabs run it.
std::vector<TuneCandidate> slab_candidates(const Stencil& stencil, Precision precision);

// A decomposed solver for the options, with the room's walls, sources and receivers.
using SlabBuild = std::function<std::unique_ptr<WaveSolver>(const DecompOptions&)>;

// The problem a split's choice is cached under: `room` with the parts and the split added
// to its stencil field ("7pt@room:3f2a...@slabs:2:edges/float/275x323x226").
TuneProblem slab_problem(const TuneProblem& room, int parts, bool overlap);

// Seconds per step of `build(options)`, timed by the host clock over a few steps after a
// warm-up (advance() waits for every device), within about `budget_s`.
double time_decomposed_step(const SlabBuild& build, const DecompOptions& options, double budget_s);

// The faster of the two splits' choices (only the unsplit one when base.overlap is off).
// `measure` times one candidate under one split (time_decomposed_step on the device; a
// function of the test's on the CPU). Throws std::runtime_error when no candidate ran.
using SlabMeasure = std::function<double(const TuneCandidate&, bool overlap, double budget_s)>;
SlabTuneChoice autotune_slabs(const TuneProblem& room, const TuneIdentity& identity, int parts, bool allow_overlap,
                              const std::vector<TuneCandidate>& candidates, const SlabMeasure& measure,
                              const AutotuneOptions& options);

}  // namespace ws
