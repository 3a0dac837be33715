// Every registered sediment kernel (4 versions x h/s) in float and double
// against the CPU reference, one application each, on odd grid sizes that are
// not multiples of any block, with NaN-poisoned outputs.
//
// Tolerance: the GPU and the reference evaluate the same formula on the same
// inputs (the reference runs in double on the kernel's rounded inputs and
// coefficients), so they differ only by the rounding of the GPU's arithmetic
// (and FMA contraction). Both updates are sums of ~20 products; the forward
// error bound is a small multiple of eps_T times the sum of the magnitudes of
// the summands, which the test computes per cell (`scale`). 64 eps_T * scale
// is that bound with margin; a wrong neighbour, coefficient or upwind branch
// shifts the result by the size of a whole summand, orders of magnitude more
// (the random state makes each summand large: h varies by metres per cell).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <random>

#include "common/gpu.hpp"
#include "core/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "sediment/sediment_cpu.hpp"
#include "sediment_test_scenes.hpp"

namespace ws {
namespace {

template <class T>
struct Inputs {
  SedimentLayout L;
  SedimentCoeffs<T> k;
  SedimentCoeffs<double> kd;  // the same rounded coefficients, widened
  std::vector<T> alpha, beta, s, h, h1;
};

template <class T>
SedimentCoeffs<double> widen(const SedimentCoeffs<T>& k) {
  return {k.inv_2cs, k.inv_2cm, k.inv_cs, k.inv_cm, k.dt_dx2, k.dt_dy2, k.inv_2dx2, k.inv_2dy2, k.dt_over_a};
}

template <class T>
std::vector<double> widen(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

// A rough state: random s in [0, 1], h = bump + noise of +-2 m, h1 = h + noise,
// ghosts filled for both with the scene's boundary fluxes.
template <class T>
Inputs<T> make_inputs(int nx, int ny, unsigned seed) {
  const SedimentScene sc = testing::river_scene(nx, ny, true);
  SedimentInitialState st = build_initial_state(sc);
  const SedimentGrid g = derive_sediment_grid(sc, st);
  const SedimentLayout& D = st.layout;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1), pm(-1, 1);
  std::vector<double> h1 = st.h;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int64_t p = D.index(i, j);
      st.s[p] = u01(rng);
      st.h[p] += 2.0 * pm(rng);
      h1[p] = st.h[p] + 0.5 * pm(rng);
    }
  const auto kd = make_sediment_coeffs<double>(sc.compaction_sand, sc.compaction_mud, sc.top_layer_m, sc.dx_m,
                                               sc.dy_m, g.dt_s);
  BoundaryData<double> b;
  b.q_m2_s = st.q_m2_s.data();
  for (int q = 0; q < 4; ++q) b.s_in[q] = st.s_in[q];
  b.dx_m = sc.dx_m;
  b.dy_m = sc.dy_m;
  cpu_fill_ghosts(st.h.data(), st.s.data(), st.alpha.data(), st.beta.data(), D, kd, b, true);
  cpu_fill_ghosts(h1.data(), st.s.data(), st.alpha.data(), st.beta.data(), D, kd, b, false);
  Inputs<T> in;
  in.L = make_sediment_layout(nx, ny, sizeof(T));
  in.k = make_sediment_coeffs<T>(sc.compaction_sand, sc.compaction_mud, sc.top_layer_m, sc.dx_m, sc.dy_m, g.dt_s);
  in.kd = widen(in.k);
  in.alpha = relayout<T>(st.alpha, D, in.L);
  in.beta = relayout<T>(st.beta, D, in.L);
  in.s = relayout<T>(st.s, D, in.L);
  in.h = relayout<T>(st.h, D, in.L);
  in.h1 = relayout<T>(h1, D, in.L);
  return in;
}

template <class T>
DeviceBuffer<T> upload(const std::vector<T>& v) {
  DeviceBuffer<T> d(v.size());
  copy_to_device(d.get(), v.data(), d.bytes());
  return d;
}

// Sum of |summands| of h_update / s_update at p (the forward-error scale).
double h_scale(const Inputs<double>& w, int64_t p) {
  const int64_t P = w.L.pitch;
  const auto& k = w.kd;
  auto K = [&](int64_t q) {
    return (w.alpha[p] * w.s[p] + w.alpha[q] * w.s[q]) * k.inv_2cs +
           (w.beta[p] * (1 - w.s[p]) + w.beta[q] * (1 - w.s[q])) * k.inv_2cm;
  };
  const double* h = w.h.data();
  return std::fabs(h[p]) + k.dt_dx2 * (K(p + 1) * std::fabs(h[p + 1] - h[p]) + K(p - 1) * std::fabs(h[p] - h[p - 1])) +
         k.dt_dy2 * (K(p + P) * std::fabs(h[p + P] - h[p]) + K(p - P) * std::fabs(h[p] - h[p - P]));
}

double s_scale(const Inputs<double>& w, int64_t p) {
  const int64_t P = w.L.pitch;
  const auto& k = w.kd;
  auto g = [&](int64_t q) { return std::fabs(w.alpha[q] * k.inv_cs) + std::fabs(w.beta[q] * k.inv_cm); };
  const double* h = w.h1.data();
  const double q = ((g(p) + g(p + 1)) * std::fabs(h[p + 1] - h[p]) + (g(p) + g(p - 1)) * std::fabs(h[p] - h[p - 1])) *
                       k.inv_2dx2 +
                   ((g(p) + g(p + P)) * std::fabs(h[p + P] - h[p]) + (g(p) + g(p - P)) * std::fabs(h[p] - h[p - P])) *
                       k.inv_2dy2;
  const double u = (std::fabs(h[p + 1]) + std::fabs(h[p - 1])) * k.inv_2dx2 +
                   (std::fabs(h[p + P]) + std::fabs(h[p - P])) * k.inv_2dy2;  // |s diffs| <= 1
  const double c = w.alpha[p] * k.inv_cs + w.beta[p] * k.inv_cm;
  return 1.0 + k.dt_over_a * (q + c * u);
}

template <class T>
void check_kernel(const SedimentKernel& kk, int nx, int ny, BlockShape block) {
  SCOPED_TRACE(kk.id + " " + to_string(precision_of<T>()) + " " + std::to_string(nx) + "x" + std::to_string(ny) +
               " block " + std::to_string(block.x) + "x" + std::to_string(block.y));
  const Inputs<T> in = make_inputs<T>(nx, ny, 1234u + nx);
  Inputs<double> w;
  w.L = in.L;
  w.kd = in.kd;
  w.alpha = widen(in.alpha);
  w.beta = widen(in.beta);
  w.s = widen(in.s);
  w.h = widen(in.h);
  w.h1 = widen(in.h1);
  const bool is_h = kk.kind == SedimentKernelKind::H;

  // Reference (double, on the rounded inputs).
  std::vector<double> ref(in.L.total, 0.0), h1w = w.h1;
  SedimentArgs<double> ra{w.alpha.data(), w.beta.data(), w.s.data(), w.h.data(), is_h ? ref.data() : h1w.data(),
                          is_h ? nullptr : ref.data(), in.L, in.kd};
  if (is_h) cpu_h_update(ra);
  else cpu_s_update(ra);

  // GPU, output poisoned with NaN everywhere (ghosts and padding included).
  const std::vector<T> poison(in.L.total, std::numeric_limits<T>::quiet_NaN());
  DeviceBuffer<T> a = upload(in.alpha), b = upload(in.beta), s = upload(in.s), h = upload(in.h),
                  h1 = upload(is_h ? poison : in.h1), s1 = upload(poison);
  const SedimentArgs<T> args{a.get(), b.get(), s.get(), h.get(), h1.get(), s1.get(), in.L, in.k};
  const SedimentLaunchFn<T> fn = [&] {
    if constexpr (std::is_same_v<T, float>) return kk.launch_float;
    else return kk.launch_double;
  }();
  fn(args, block, 0);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<T> out(in.L.total);
  CUDA_CHECK(cudaMemcpy(out.data(), is_h ? h1.get() : s1.get(), in.L.bytes(sizeof(T)), cudaMemcpyDeviceToHost));

  const double eps = std::numeric_limits<T>::epsilon();
  int bad = 0, written_outside = 0;
  double worst = 0;
  for (int64_t q = 0; q < in.L.total; ++q) {
    const int j = (int)(q / in.L.pitch) - 1, i = (int)(q % in.L.pitch) - in.L.x0;
    const bool interior = i >= 0 && i < nx && j >= 0 && j < ny;
    if (!interior) {
      if (!std::isnan((double)out[q])) ++written_outside;
      continue;
    }
    const double tol = 64 * eps * (is_h ? h_scale(w, q) : s_scale(w, q));
    const double d = std::fabs((double)out[q] - ref[q]);
    if (!(d <= tol)) {  // NaN (cell not written) fails too
      if (bad++ < 5)
        ADD_FAILURE() << "cell (" << i << ", " << j << "): gpu " << out[q] << " cpu " << ref[q] << " tol " << tol;
    }
    worst = std::max(worst, d / tol);
  }
  EXPECT_EQ(bad, 0) << "cells off the reference";
  EXPECT_EQ(written_outside, 0) << "the kernel wrote outside the interior (ghosts or padding)";
  // The margin, for the log: worst |gpu - cpu| / tolerance over the interior (< 1 passes).
  std::cout << "[ margin   ] " << kk.id << " " << to_string(precision_of<T>()) << " " << nx << "x" << ny << " block "
            << block.x << "x" << block.y << ": worst error / tolerance = " << worst << "\n";
}

class SedimentKernelsGpu : public ::testing::TestWithParam<std::string> {};

TEST_P(SedimentKernelsGpu, MatchesCpuReference) {
  WS_REQUIRE_GPU();
  const SedimentKernel& kk = SedimentKernelRegistry::instance().at(GetParam());
  // Odd sizes, not multiples of the 32x4 tiles; one thin grid narrower than a tile.
  const std::vector<std::pair<int, int>> sizes = {{67, 45}, {131, 29}, {19, 7}};
  // The paper's block and one other (OPT-3: a 16x8 tile with its halo).
  const std::vector<BlockShape> blocks = {kk.default_block,
                                          kk.halo_threads ? BlockShape{18, 10, 1} : BlockShape{16, 8, 1}};
  for (const auto& [nx, ny] : sizes)
    for (const BlockShape& b : blocks) {
      check_kernel<double>(kk, nx, ny, b);
      check_kernel<float>(kk, nx, ny, b);
    }
}

std::vector<std::string> all_ids() {
  std::vector<std::string> ids;
  for (const auto& k : SedimentKernelRegistry::instance().all()) ids.push_back(k.id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(AllVersions, SedimentKernelsGpu, ::testing::ValuesIn(all_ids()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(SedimentKernelRegistry, HasThePapersFourVersionsOfBothKernels) {
  const auto& r = SedimentKernelRegistry::instance();
  for (const char* id : {"h-baseline", "h-opt1", "h-opt2", "h-opt3", "s-baseline", "s-opt1", "s-opt2", "s-opt3"}) {
    const SedimentKernel* k = r.find(id);
    ASSERT_NE(k, nullptr) << id;
    EXPECT_TRUE(k->launch_float && k->launch_double) << id;
  }
  EXPECT_EQ(r.at("h-opt3").default_block.x, 34);
  EXPECT_EQ(r.at("h-opt3").default_block.y, 6);
  EXPECT_EQ(r.at("h-opt3").tile(r.at("h-opt3").default_block).x, 32);
  EXPECT_THROW(r.at("h-opt3").check_block({2, 6, 1}), std::invalid_argument);
  EXPECT_THROW(r.at("nope"), std::invalid_argument);
}

}  // namespace
}  // namespace ws
