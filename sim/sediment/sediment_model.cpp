#include "sediment/sediment_model.hpp"

#include <algorithm>
#include <stdexcept>

#include "cuda/device_info.hpp"

namespace ws {

SedimentModel::SedimentModel(const SedimentScene& scene, BackendChoice backend, const std::string& h_kernel,
                             const std::string& s_kernel)
    : scene_(scene), choice_(backend) {
  problem_.state = build_initial_state(scene);
  grid_ = derive_sediment_grid(scene, problem_.state);
  problem_.compaction_sand = scene.compaction_sand;
  problem_.compaction_mud = scene.compaction_mud;
  problem_.top_layer_m = scene.top_layer_m;
  problem_.dx_m = scene.dx_m;
  problem_.dy_m = scene.dy_m;
  problem_.dt_s = grid_.dt_s;
  build(scene.precision, h_kernel, s_kernel, nullptr, nullptr);
}

void SedimentModel::build(Precision p, const std::string& h_id, const std::string& s_id, const BlockShape* hb,
                          const BlockShape* sb) {
  std::unique_ptr<SedimentSolver> next;
  CudaSedimentSolver* next_cuda = nullptr;
  const BackendDecision backend = decide_backend(choice_);
  backend_note_ = backend.note;
  if (backend.use_cuda) {
    auto c = make_cuda_sediment_solver(problem_, p, h_id, s_id);
    if (hb) c->set_kernel(c->h_kernel().id, *hb);
    if (sb) c->set_kernel(c->s_kernel().id, *sb);
    next_cuda = c.get();
    next = std::move(c);
  }
  if (!next) {
    // Kernel ids still have to be valid ids (a scene or CLI typo should not pass silently on the CPU).
    for (const std::string* id : {&h_id, &s_id})
      if (!id->empty()) SedimentKernelRegistry::instance().at(*id);
    next = make_cpu_sediment_solver(problem_, p);
  }
  if (solver_) {  // carry the state over (precision switch)
    std::vector<double> h, s;
    solver_->read_state(h, s);
    next->write_state(h, s, solver_->step());
  }
  solver_ = std::move(next);
  cuda_ = next_cuda;
  scene_.precision = p;
}

void SedimentModel::reset() { solver_->write_state(problem_.state.h, problem_.state.s, 0); }

void SedimentModel::set_kernel(const std::string& id) {
  set_kernel(id, SedimentKernelRegistry::instance().at(id).default_block);
}

void SedimentModel::set_kernel(const std::string& id, BlockShape block) {
  if (!cuda_) throw std::runtime_error("sediment kernel versions need the CUDA backend; running: " + backend_note_);
  cuda_->set_kernel(id, block);
}

void SedimentModel::set_precision(Precision p) {
  if (p == solver_->precision()) return;
  if (cuda_) {
    const std::string h = cuda_->h_kernel().id, s = cuda_->s_kernel().id;
    const BlockShape hb = cuda_->h_block(), sb = cuda_->s_block();
    build(p, h, s, &hb, &sb);
  } else {
    build(p, "", "", nullptr, nullptr);
  }
}

void SedimentModel::synchronize() {
  if (cuda_) cuda_->synchronize();
}

cudaStream_t SedimentModel::stream() const { return cuda_ ? cuda_->stream() : cudaStream_t(0); }

SedimentStats SedimentModel::stats() {
  std::vector<double> h, s;
  solver_->read_state(h, s);
  const SedimentLayout& L = problem_.state.layout;
  SedimentStats st;
  st.h_min_m = st.s_min = 1e300;
  st.h_max_m = st.s_max = -1e300;
  double sum = 0.0;
  for (int j = 0; j < L.ny; ++j)
    for (int i = 0; i < L.nx; ++i) {
      const int64_t p = L.index(i, j);
      st.h_min_m = std::min(st.h_min_m, h[p]);
      st.h_max_m = std::max(st.h_max_m, h[p]);
      st.s_min = std::min(st.s_min, s[p]);
      st.s_max = std::max(st.s_max, s[p]);
      sum += h[p];
    }
  st.volume_m3 = sum * scene_.dx_m * scene_.dy_m;
  return st;
}

}  // namespace ws
