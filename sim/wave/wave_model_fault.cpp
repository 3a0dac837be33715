// WaveModel after a solver fault: stop with the error named, keep the receivers and
// (when the device still answers) the field, and go on with the CPU solver on request.
#include <sstream>

#include "core/relayout.hpp"
#include "wave/wave_model.hpp"

namespace ws {

void WaveModel::stop_on_fault(const std::exception& error) {
  const long long computed = solver_->step();
  // Samples the solver took before it failed (a sticky error loses the ones still on the device).
  try {
    take_samples();
  } catch (...) {
  }
  fault_ = Fault();
  fault_.active = true;
  fault_.step = computed;
  try {
    solver_->read_state(fault_.u_cur, fault_.u_prev);
    fault_.layout = solver_->layout();
    fault_.field_kept = true;
  } catch (...) {
    fault_.u_cur.clear();
    fault_.u_prev.clear();
  }
  const size_t kept = history_.empty() ? 0 : history_[0].size();
  std::ostringstream os;
  os << "the " << (cuda_ ? "CUDA solver" : "solver") << " failed at step " << computed << ": "
     << error.what() << "; the run is stopped. The receivers' " << kept << " samples are kept. ";
  if (fault_.field_kept)
    os << "The field at step " << computed << " was read back; the CPU solver can continue from it";
  else
    os << "The field could not be read back (the error is sticky: the CUDA context is lost); the CPU solver "
          "can continue from a silent room at step "
       << computed;
  fault_.message = os.str();
  throw SolverFaultError(fault_.message);
}

void WaveModel::continue_on_cpu() {
  if (!fault_.active) return;
  const Fault f = fault_;
  const std::string why = f.message.substr(0, f.message.find("; the run is stopped"));
  // The failed solver goes first: its device memory and stream (with a lost context, its
  // destructors' CUDA calls fail and are ignored).
  solver_.reset();
  cuda_ = nullptr;
  slabs_ = nullptr;
  choice_ = BackendChoice::Cpu;
  decomp_ = DecompOptions{};
  build_solver(scene_.precision, "", nullptr);
  const FieldLayout& to = solver_->layout();
  if (f.field_kept) {
    solver_->write_state(relayout(f.u_cur, f.layout, to), relayout(f.u_prev, f.layout, to), f.step);
  } else {
    const std::vector<double> zero(to.total, 0.0);
    solver_->write_state(zero, zero, f.step);
  }
  backend_note_ += " after " + why + (f.field_kept ? "" : " (the field was lost; the room restarted silent)");
  kernel_choice_note_.clear();
  fault_ = Fault();
  next_check_ = solver_->step() + chunk_steps();
}

}  // namespace ws
