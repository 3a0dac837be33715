#pragma once
// The audio panel (ImGui only): device and buffer, playback and pacing, level
// meter and spectrum, auralization, WAV export. It reads and drives one
// ws::audio::AudioSession; the frame loop does the per-frame session calls.
#include <memory>
#include <string>
#include <vector>

#include "playback/audio_session.hpp"

namespace ws::gui {

// What the panel remembers between frames (edits not yet applied, paths).
struct AudioPanelState {
  audio::AudioSettings pending;  // device settings being edited; applied by "Open"
  audio::DryParams dry;
  std::vector<audio::OutputDeviceInfo> devices;
  bool devices_listed = false;
  char export_path[512] = "receiver.wav";
  char ir_path[512] = "impulse_response.wav";
  char dry_path[512] = "";
  int export_rate_index = 0;  // 0: simulation rate, else one of the standard rates
  bool export_normalize = true;
};

// receiver_names: the scene's receivers, for the left/right ear choice.
void draw_audio_panel(audio::AudioSession& session, AudioPanelState& state,
                      const std::vector<std::string>& receiver_names);

struct PanelSection;  // gui/panel.hpp
// A ready-made "Audio" section for the GUI's panel list: draws the panel and,
// after each advance, pushes the model's new receiver samples and updates the
// session. The frame loop's pacing hook (steps_for_frame) is separate.
PanelSection make_audio_section(std::shared_ptr<audio::AudioSession> session);

}  // namespace ws::gui
