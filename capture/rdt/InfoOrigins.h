// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rdt {

/// How one value of resctrl's info/ was obtained. Trees copied by other projects (libvirt, cAdvisor, koordinator
/// test data) and older kernels lack some files; such a value is unknown, or inferred from another file, and says
/// which (docs/RESCTRL.md "Trees with files missing"), never a default shown as if it had been read.
enum class InfoOrigin { Read, Inferred, Unknown };

struct InfoValueOrigin {
    std::string key; ///< the info file's name: "num_closids", "cbm_mask", "num_rmids", ...
    InfoOrigin origin = InfoOrigin::Read;
    /// Inferred: where from ("from the root schemata's full L3 mask"); Unknown: why ("info/L3/num_closids is missing").
    std::string why;
};

/// The origins of one resource's values. A key not marked was read from its file.
class InfoOrigins {
public:
    void mark(std::string key, InfoOrigin origin, std::string why);
    InfoOrigin of(std::string_view key) const;
    bool known(std::string_view key) const { return of(key) != InfoOrigin::Unknown; }
    /// The value as text for people: `text` when read, "TEXT (inferred from ...)", or "unknown (... is missing)".
    std::string show(std::string_view key, const std::string& text) const;
    /// Why `key` is not read ("" when it was).
    std::string why(std::string_view key) const;
    const std::vector<InfoValueOrigin>& entries() const { return m_entries; }

private:
    const InfoValueOrigin* find(std::string_view key) const;
    std::vector<InfoValueOrigin> m_entries;
};

} // namespace rdt
