// The GUI's display path without host synchronisation: the slices are extracted
// on the solver's stream after the frame's last step, and the next frame's steps
// are queued at once. The textures must still show the field of the frame they
// were taken at (not a later one), and max_abs_latest() must catch up with
// max_abs() without being waited for.
#include <gtest/gtest.h>

#include <cmath>

#include "common/gpu.hpp"
#include "common/random_field.hpp"
#include "cuda/cuda_solver.hpp"
#include "render/egl_fixture.hpp"
#include "slice_textures.hpp"

namespace ws {
namespace {

// queued: the next frame's steps are queued with advance_async() and are still running
// (or at least not waited for) while the textures are read back, as in the GUI's frame
// loop; else advance() waits for them first.
void textures_show_their_frame(bool queued) {
  WS_REQUIRE_EGL();
  const Stencil st = make_stencil("7pt");
  const int nx = 96, ny = 80, nz = 64;
  auto solver = make_cuda_solver(Precision::Float, st, nx, ny, nz, st.courant_max, 1e-4);
  const FieldLayout L = solver->layout();
  solver->write_state(testing::random_field(L, 5), testing::random_field(L, 6), 0);
  solver->advance(3);
  render::SliceTextures tex(solver->current_field());
  if (tex.mode() != render::SliceUploadMode::Interop) GTEST_SKIP() << "no CUDA-GL interop: " << tex.interop_note();
  const render::SlicePositions pos{31, 17, 40};
  for (int frame = 0; frame < 4; ++frame) {
    std::vector<double> u, up;
    solver->read_state(u, up);  // the frame's field (read_state waits for the stream)
    tex.update(solver->current_field(), pos, solver->stream());
    // The next frame's steps, queued behind the extraction (enough of them to be still running).
    if (queued) solver->advance_async(2000);
    else solver->advance(50);
    float want_max = 0.0f;
    for (int q = 0; q < render::kSliceCount; ++q) {
      const auto a = (render::SliceAxis)q;
      const auto got = tex.read_back(a);
      const auto t = render::tangent_axes(a);
      int bad = 0;
      for (int v = 0; v < tex.height(a); ++v)
        for (int w = 0; w < tex.width(a); ++w) {
          int idx[3];
          idx[render::normal_axis(a)] = pos.index_for(a);
          idx[t[0]] = w;
          idx[t[1]] = v;
          const float want = (float)u[L.index(idx[0], idx[1], idx[2])];
          want_max = std::max(want_max, std::fabs(want));
          if (!(got[(size_t)v * tex.width(a) + w] == want)) ++bad;
        }
      EXPECT_EQ(bad, 0) << render::slice_name(a) << " at frame " << frame;
    }
    if (queued) solver->finish_async();
    solver->synchronize();
    EXPECT_EQ(tex.max_abs_latest(), want_max) << "frame " << frame;
    EXPECT_EQ(tex.max_abs(), want_max) << "frame " << frame;
  }
}

TEST(SliceOverlap, TexturesShowTheFrameTheyWereTakenAtWhileTheNextStepsRun) {
  WS_REQUIRE_GPU();
  WS_REQUIRE_EGL();
  textures_show_their_frame(false);
}

TEST(SliceOverlap, TexturesShowTheFrameTheyWereTakenAtWhileQueuedStepsRun) {
  WS_REQUIRE_GPU();
  WS_REQUIRE_EGL();
  textures_show_their_frame(true);
}

}  // namespace
}  // namespace ws
