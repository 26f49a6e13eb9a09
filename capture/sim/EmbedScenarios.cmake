# SPDX-License-Identifier: GPL-3.0-or-later
# Writes a .cpp holding every shipped scenario file as a string, so rdtscope-cli (which has no Qt resources)
# carries them. Run with -DOUT=file.cpp -DFILES=a.scn;b.scn.
set(body "// Generated from resources/scenarios by EmbedScenarios.cmake; do not edit.\n#include \"sim/EmbeddedScenarios.h\"\nnamespace rdt::sim {\nconst std::vector<EmbeddedScenario>& embeddedScenarios()\n{\n    static const std::vector<EmbeddedScenario> list = {\n")
string(REPLACE "|" ";" FILES "${FILES}")
list(SORT FILES)
foreach(f ${FILES})
  get_filename_component(name ${f} NAME_WE)
  file(READ ${f} content)
  # A raw string literal keeps the text byte for byte; the delimiter cannot occur in a scenario file.
  string(APPEND body "        { \"${name}\", R\"rdtscn(${content})rdtscn\" },\n")
endforeach()
string(APPEND body "    };\n    return list;\n}\n} // namespace rdt::sim\n")
file(WRITE ${OUT} "${body}")
