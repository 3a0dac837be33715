#pragma once
// Scripted soak of the live switches (WS_GUI_SOAK=K, docs/reliability.md
// "Soak"): every K frames the GUI queues the next change of a fixed rotation,
// as the panel's controls would (precision, stencil, and on the CUDA backend
// the kernel), and prints one line with the process's resident memory, the
// device memory in use and the field's peak, so that a long run shows whether
// memory stays flat, no switch fails and the field stays bounded.
#include <string>

namespace ws::gui {

struct GuiContext;

struct SoakScript {
  int every_frames = 0;  // 0: off
  // Which switches rotate (WS_GUI_SOAK_SWITCHES, a comma list); all three by default.
  std::string switches = "precision,stencil,kernel";
  // The two stencils the rotation alternates between (WS_GUI_SOAK_STENCILS="a;b"):
  // the scene's courant must be within both limits and its walls fixed (leggy:2
  // takes no other walls); assets/scenes/soak_switching.json is such a scene.
  std::string stencil_a = "7pt", stencil_b = "leggy:2";
  long long cycle = 0;
  long long failures = 0;  // switches refused or failed
};

// Called after each frame; queues a change every `every_frames` frames and
// reports the state the previous change left. A blow-up ends the soak (the
// model is paused with the watchdog's message).
void soak_step(GuiContext& ctx, SoakScript& soak, long long frame);

}  // namespace ws::gui
