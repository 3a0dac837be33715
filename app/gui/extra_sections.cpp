// Registration point for panel sections that live outside the built-in set
// (the audio panel, other models' controls): one push_back per section, see
// panel.hpp. The built-in sections are listed in panel_sections.cpp.
#include "gui/panel.hpp"

namespace ws::gui {

void register_extra_panel_sections(std::vector<PanelSection>& sections) { (void)sections; }

}  // namespace ws::gui
