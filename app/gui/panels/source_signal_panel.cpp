#include "gui/panels/source_signal_panel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "source/sampled_sources.hpp"

namespace ws::gui {

namespace {

// The picker's edits, kept across frames (one source at a time).
struct SignalPickerState {
  int source = 0;
  int choice = 0;  // 0: WAV file, 1.. : dry_signal_names()[choice - 1]
  std::string wav_path;
  float amplitude_m3_s = 1e-3f;
};

std::string signal_text(const SourceSpec& s) {
  if (s.signal.kind != SignalKind::Sampled) return to_string(s.signal.kind);
  const std::string what = s.sampled.stream ? s.sampled.stream->describe()
                           : s.sampled.kind == SampledSignalSpec::Kind::Wav ? s.sampled.path
                                                                             : s.sampled.dry_name;
  return (s.sampled.kind == SampledSignalSpec::Kind::Wav ? "wav: " : "dry: ") + what;
}

// A relative WAV path is looked up beside the scene file, as in the scene's "path" key.
std::string resolve_against_scene(const std::string& path, const std::string& scene_path) {
  if (path.empty() || path[0] == '/') return path;
  const auto dir = std::filesystem::path(scene_path).parent_path();
  return dir.empty() ? path : (dir / path).string();
}

void draw_source_signals(GuiContext& ctx, SignalPickerState& st) {
  const WaveScene& scene = ctx.model().scene();
  if (scene.sources.empty()) {
    ImGui::TextDisabled("the scene has no sources");
    return;
  }
  for (size_t q = 0; q < scene.sources.size(); ++q)
    ImGui::TextWrapped("source %zu: %s, amplitude %g %s", q, signal_text(scene.sources[q]).c_str(),
                       scene.sources[q].signal.amplitude,
                       scene.sources[q].quantity == SourceQuantity::VolumeVelocity ? "m^3/s" : "(scheme units)");
  ImGui::Separator();
  st.source = std::clamp(st.source, 0, (int)scene.sources.size() - 1);
  if (scene.sources.size() > 1) ImGui::SliderInt("source", &st.source, 0, (int)scene.sources.size() - 1);
  std::vector<std::string> labels{"WAV file"};
  for (const auto& n : dry_signal_names()) labels.push_back("dry: " + n);
  std::vector<const char*> items;
  for (const auto& l : labels) items.push_back(l.c_str());
  ImGui::Combo("play", &st.choice, items.data(), (int)items.size());
  if (st.choice == 0) ImGui::InputTextWithHint("WAV", "music.wav (beside the scene file, or a full path)", &st.wav_path);
  ImGui::InputFloat("amplitude", &st.amplitude_m3_s, 0.0f, 0.0f, "%.3g");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("a full-scale sample is this volume velocity (m^3/s; scheme units for a scheme source)");
  if (ImGui::Button("Play from now")) {
    const SignalPickerState pick = st;
    const std::string scene_path = ctx.session->path();
    // Applied at the frame boundary; a file that cannot be read lands in the panel's error line.
    ctx.pending.actions.push_back([pick, scene_path](GuiContext& c) {
      WaveModel& m = c.model();
      SampledSignalSpec spec;
      if (pick.choice == 0) {
        if (pick.wav_path.empty()) throw std::invalid_argument("give a WAV file to play");
        spec.kind = SampledSignalSpec::Kind::Wav;
        spec.path = pick.wav_path;
        spec.resolved_path = resolve_against_scene(pick.wav_path, scene_path);
      } else {
        spec.kind = SampledSignalSpec::Kind::Dry;
        spec.dry_name = dry_signal_names().at((size_t)pick.choice - 1);
      }
      spec.stream = audio::make_sample_stream(spec, m.scene().sample_rate_hz);
      SourceSignal sig;
      sig.kind = SignalKind::Sampled;
      sig.amplitude = pick.amplitude_m3_s;
      sig.delay_s = m.time_s();  // its first sample at the next step
      m.set_source_signal((size_t)pick.source, sig, spec);
    });
  }
}

}  // namespace

PanelSection make_source_signal_section() {
  auto state = std::make_shared<SignalPickerState>();
  PanelSection s;
  s.title = "Source signals";
  s.draw = [state](GuiContext& ctx) { draw_source_signals(ctx, *state); };
  s.default_open = false;
  s.model = ModelKind::Wave;
  return s;
}

}  // namespace ws::gui
