#pragma once
// Ordering between slabs on different GPUs inside the slabs' step graph without graph
// edges between devices: a graph's edge from one device's node to another's costs far
// more than the copy it orders (docs/benchmarks.md, "Four H100s: the step graph"), so
// across devices the graph's branches meet through flags in device memory instead.
// After a copy into a neighbour's halo, a one-thread kernel of the sending device
// stores the step count into the neighbour's flag (through peer access); before the
// neighbour's update reads that halo, a one-thread kernel of its own device waits for
// the flag to reach the step. Counts restart from 0 at every replay (the flags are
// zeroed before it), so the steps' numbers are fixed when the graph is captured.
#include <cuda_runtime.h>

namespace ws {

// Per slab, on its device: what its neighbours on other devices have told it.
enum StepFlag : int {
  kHaloBelowReady = 0,  // steps whose planes the slab below has copied into my halo
  kHaloAboveReady = 1,
  kBelowDone = 2,       // steps the slab below has updated (my copy into it may overwrite)
  kAboveDone = 3,
  kWaitTimedOut = 4,    // set by a wait that gave up (a neighbour never signalled)
  kStepFlags = 5
};

// A wait gives up after this long, sets kWaitTimedOut and returns, so that a device
// never hangs; the solver then reports the failure (decomposed_solver.cpp).
constexpr double kStepFlagTimeoutS = 2.0;

// Queues on `stream` (of the flags' device) a wait until flags[a] and flags[b] (b < 0:
// only a) reach `at_least`.
void queue_flag_wait(const unsigned* flags, int a, int b, unsigned at_least, unsigned* timed_out,
                     cudaStream_t stream);

// Queues on `stream` the store of `value` into `flag` (another device's memory, written
// through peer access) after everything before it on the stream.
void queue_flag_signal(unsigned* flag, unsigned value, cudaStream_t stream);

}  // namespace ws
