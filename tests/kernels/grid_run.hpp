#pragma once
// A multi-step kernel run on a grid of its own, for the brick kernels' GPU tests: random
// fields, the given sources and receivers, a list of advances; the fields at the end and
// every receiver sample, to compare bit for bit with the solver's default kernel.
#include <string>
#include <vector>

#include "common/random_field.hpp"
#include "cuda/cuda_solver.hpp"
#include "kernels/multi_step_cases.hpp"

namespace ws {
namespace grid_run {

struct GridRun {
  std::vector<double> cur, prev;
  std::vector<std::vector<double>> rec;
};

// `kernel` on an nx x ny x nz grid from random fields (seeds `seed` and `seed` + 1) with
// these sources and receivers, over `advances`: the fields at the end and every step's
// receiver samples.
inline GridRun run_grid(Precision p, const std::string& kernel, int nx, int ny, int nz, const std::vector<SourceNode>& src,
                 const std::vector<ReceiverTaps>& taps, const std::vector<int>& advances, int seed) {
  const Stencil st = make_stencil("7pt");
  auto s = make_cuda_solver(p, st, nx, ny, nz, st.courant_max, multi_step::kDt, kernel);
  s->set_sources(src);
  s->set_receiver_taps(taps);
  s->write_state(testing::random_field(s->layout(), seed), testing::random_field(s->layout(), seed + 1), 0);
  GridRun r;
  r.rec.assign(taps.size(), {});
  for (int n : advances) {
    s->advance(n);
    auto got = s->take_receiver_samples();
    for (size_t q = 0; q < taps.size(); ++q) r.rec[q].insert(r.rec[q].end(), got[q].begin(), got[q].end());
  }
  s->read_state(r.cur, r.prev);
  return r;
}

inline SourceSignal gaussian(int delay_steps) {
  SourceSignal g;
  g.kind = SignalKind::Gaussian;
  g.width_s = 3 * multi_step::kDt;
  g.delay_s = delay_steps * multi_step::kDt;
  return g;
}

// Trilinear taps of the cell with lowest corner (i0, j0, k0), weight w0 + dw * corner.
inline ReceiverTaps trilinear(int i0, int j0, int k0, double w0, double dw) {
  ReceiverTaps t;
  for (int c = 0; c < 8; ++c) t.push_back({{i0 + (c & 1), j0 + ((c >> 1) & 1), k0 + (c >> 2)}, w0 + dw * c});
  return t;
}

}  // namespace grid_run
}  // namespace ws
