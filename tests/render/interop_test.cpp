// GPU: slices written by the CUDA extraction kernel equal the solver's field.
//  - Interop: through the registered pixel-unpack buffer and glTexSubImage2D
//    (needs the EGL device to be the CUDA GPU; skipped with the reason if not).
//  - Staged: the same kernel into device memory, then uploaded (any GL).
// Fields come from a random state advanced a few steps by the CUDA solver, on
// a grid whose sizes are not multiples of the 32x8 extraction block; the
// planes then move to the edges so stale texels would show.
#include <gtest/gtest.h>

#include "common/gpu.hpp"
#include "common/random_field.hpp"
#include "cuda/cuda_solver.hpp"
#include "egl_fixture.hpp"
#include "slice_textures.hpp"

namespace ws {
namespace {

struct Case {
  Precision precision;
  bool interop;
};

class SliceInterop : public ::testing::TestWithParam<Case> {};

void compare(const render::SliceTextures& tex, const std::vector<double>& u, const FieldLayout& L) {
  const auto pos = tex.positions();
  const auto packed = tex.read_back_buffer();  // empty unless interop
  int64_t offset = 0;
  float want_max = 0.0f;
  for (int q = 0; q < render::kSliceCount; ++q) {
    const auto a = (render::SliceAxis)q;
    const auto got = tex.read_back(a);
    const auto t = render::tangent_axes(a);
    int bad = 0;
    for (int v = 0; v < tex.height(a); ++v)
      for (int uu = 0; uu < tex.width(a); ++uu) {
        int idx[3];
        idx[render::normal_axis(a)] = pos.index_for(a);
        idx[t[0]] = uu;
        idx[t[1]] = v;
        // The kernel converts with a plain float cast, as the host does: equal bits expected.
        const float want = (float)u[L.index(idx[0], idx[1], idx[2])];
        want_max = std::max(want_max, std::fabs(want));
        const size_t p = (size_t)v * tex.width(a) + uu;
        if (!(got[p] == want) && bad++ < 5)
          ADD_FAILURE() << render::slice_name(a) << " texture texel (" << uu << "," << v << "): " << got[p]
                        << " != " << want;
        if (!packed.empty() && !(packed[offset + p] == want) && bad++ < 5)
          ADD_FAILURE() << render::slice_name(a) << " GL buffer texel (" << uu << "," << v << "): "
                        << packed[offset + p] << " != " << want;
      }
    EXPECT_EQ(bad, 0) << render::slice_name(a);
    offset += (int64_t)tex.width(a) * tex.height(a);
  }
  EXPECT_EQ(tex.max_abs(), want_max);
}

TEST_P(SliceInterop, SlicesEqualTheField) {
  WS_REQUIRE_GPU();
  WS_REQUIRE_EGL();
  const Case c = GetParam();
  const int nx = 45, ny = 37, nz = 29;
  const Stencil st = make_stencil("7pt");
  auto solver = make_cuda_solver(c.precision, st, nx, ny, nz, st.courant_max, 1e-4);
  const FieldLayout L = solver->layout();
  solver->write_state(testing::random_field(L, 5), testing::random_field(L, 6), 0);
  solver->advance(3);  // the field the renderer sees is the solver's own output

  render::SliceTextures tex(solver->current_field(), c.interop);
  if (c.interop && tex.mode() != render::SliceUploadMode::Interop)
    GTEST_SKIP() << "CUDA-GL interop unavailable: " << tex.interop_note();
  EXPECT_EQ(tex.mode(), c.interop ? render::SliceUploadMode::Interop : render::SliceUploadMode::Staged);

  std::vector<double> u, up;
  for (render::SlicePositions pos : {render::SlicePositions{7, 11, 13}, render::SlicePositions{nx - 1, 0, nz - 1},
                                     render::SlicePositions{0, ny - 1, 0}}) {
    tex.update(solver->current_field(), pos, solver->stream());
    solver->synchronize();
    solver->read_state(u, up);
    compare(tex, u, L);
    solver->advance(2);  // a different field for the next planes
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, SliceInterop,
                         ::testing::Values(Case{Precision::Float, true}, Case{Precision::Double, true},
                                           Case{Precision::Float, false}, Case{Precision::Double, false}),
                         [](const auto& info) {
                           return std::string(to_string(info.param.precision)) +
                                  (info.param.interop ? "_interop" : "_staged");
                         });

}  // namespace
}  // namespace ws
