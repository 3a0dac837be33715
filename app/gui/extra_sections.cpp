// Registration point for panel sections that live outside the built-in set
// (the audio panel, other models' controls): one push_back per section, see
// panel.hpp. The built-in sections are listed in panel_sections.cpp.
#include "gui/panel.hpp"
#include "gui/panels/audio_panel.hpp"
#include "gui/panels/source_signal_panel.hpp"

namespace ws::gui {

void register_extra_panel_sections(std::vector<PanelSection>& sections,
                                   const std::shared_ptr<audio::AudioSession>& audio) {
  sections.push_back(make_source_signal_section());  // WAV files and dry signals as sources
  // Audio listens to the wave model's receivers; the sediment model has none.
  if (audio) {
    PanelSection a = make_audio_section(audio);
    a.model = ModelKind::Wave;
    sections.push_back(std::move(a));
  }
}

}  // namespace ws::gui
