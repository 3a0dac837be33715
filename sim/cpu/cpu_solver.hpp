#pragma once
// The CPU reference solver: plain loops over the padded arrays, OpenMP over
// z planes. Every other backend is tested against it.
#include <memory>

#include "wave/wave_solver.hpp"

namespace ws {

std::unique_ptr<WaveSolver> make_cpu_solver(Precision precision, const Stencil& stencil, int nx, int ny, int nz,
                                            double courant, double dt_s);

}  // namespace ws
