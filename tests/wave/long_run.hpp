#pragma once
// A long run of a model after its source has ended: the scheme's energy and the
// field's statistics at the start and the energy's range over the run, for the
// float rigid-room tests (CPU and GPU).
#include <algorithm>
#include <vector>

#include "wave/energy.hpp"
#include "wave/wave_model.hpp"

namespace ws::testing {

struct LongRun {
  double e0 = 0, e_min = 0, e_max = 0;  // energy after the warm-up, and its range over the run
  FieldStats f0, f1;                    // the field after the warm-up and at the end
};

inline double model_energy(WaveModel& m) {
  std::vector<double> uc, up;
  m.solver().read_state(uc, up);
  return scheme_energy(uc, up, m.solver().layout(), m.solver().stencil(), m.solver().courant(), &m.boundary());
}

// warmup steps, then `chunks` advances of `chunk_steps`, the energy read after each.
inline LongRun long_run(WaveModel& m, int warmup, int chunks, int chunk_steps) {
  LongRun r;
  m.advance(warmup);
  r.e0 = r.e_min = r.e_max = model_energy(m);
  r.f0 = m.solver().field_stats();
  for (int c = 0; c < chunks; ++c) {
    m.advance(chunk_steps);
    const double e = model_energy(m);
    r.e_min = std::min(r.e_min, e), r.e_max = std::max(r.e_max, e);
  }
  r.f1 = m.solver().field_stats();
  return r;
}

}  // namespace ws::testing
