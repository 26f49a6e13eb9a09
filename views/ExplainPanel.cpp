// SPDX-License-Identifier: GPL-3.0-or-later
#include "ExplainPanel.h"

#include "models/MachineModel.h"

#include <QDir>
#include <QFile>
#include <QTextBrowser>
#include <QVBoxLayout>

ExplainPanel::ExplainPanel(QWidget* parent)
    : QWidget(parent)
    , m_browser(new QTextBrowser(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_browser->setOpenExternalLinks(true);
    layout->addWidget(m_browser);
    m_browser->setMarkdown(tr("Select a capability, a heatmap cell, a counter or a timeline series to see what "
                              "it is, how it is measured and which SDM section describes it."));
}

QString ExplainPanel::conceptText(const QString& conceptId)
{
    if (conceptId.isEmpty() || conceptId.contains(QLatin1Char('/'))) return {};
    QFile f(QStringLiteral(":/explain/") + conceptId + QStringLiteral(".md"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    // The files start with a level-1 title, which a narrow dock renders far too large: show it as a level 3.
    QString text = QString::fromUtf8(f.readAll());
    if (text.startsWith(QStringLiteral("# "))) text.prepend(QStringLiteral("##"));
    text.replace(QStringLiteral("\n# "), QStringLiteral("\n### "));
    return text;
}

QStringList ExplainPanel::concepts()
{
    QStringList ids;
    const auto entries = QDir(QStringLiteral(":/explain")).entryList({ QStringLiteral("*.md") }, QDir::Files);
    for (const QString& e : entries)
        ids.append(e.chopped(3));
    return ids;
}

void ExplainPanel::setVendorVariant(const QString& variant)
{
    m_variant = variant;
    if (!m_concept.isEmpty()) showConcept(m_concept);
}

bool ExplainPanel::showConcept(const QString& conceptId)
{
    QString text;
    if (!m_variant.isEmpty()) text = conceptText(conceptId + QLatin1Char('-') + m_variant);
    if (text.isEmpty()) text = conceptText(conceptId);
    m_concept = conceptId;
    if (text.isEmpty()) {
        m_browser->setMarkdown(tr("There is no explanation for \"%1\" yet.").arg(conceptId));
        return false;
    }
    m_browser->setMarkdown(text);
    return true;
}

QString ExplainPanel::conceptForCapability(const CapabilityRow& row)
{
    const QString text = (row.group + QLatin1Char(' ') + row.name).toLower();
    // Most specific first: "MBM counter width" is about wrap, not bandwidth.
    static const std::pair<const char*, const char*> rules[] = {
        { "width", "counter-wrap" },
        { "overflow", "counter-wrap" },
        { "shareable", "shareable-bits" },
        { "cdp", "cdp" },
        { "code and data", "cdp" },
        { "clos", "clos" },
        { "rmid", "rmid" },
        { "occupancy", "llc-occupancy" },
        { "cmt", "llc-occupancy" },
        { "upscaling", "llc-occupancy" },
        { "local", "mbm-local" },
        { "mbm", "mbm-total" },
        { "bandwidth monitoring", "mbm-total" },
        { "cache bandwidth", "cba" },
        { "cba", "cba" },
        { "memory bandwidth allocation", "mba" },
        { "mba", "mba" },
        { "throttl", "mba" },
        { "cbm", "cat" },
        { "cache allocation", "cat" },
        { "cat", "cat" },
        { "lbr", "lbr" },
        { "performance monitoring", "perfmon" },
        { "pmu", "perfmon" },
        { "tma", "perfmon" },
        { "rdt monitoring", "llc-occupancy" },
        { "identity", "cpuid-enumeration" },
        { "cpuid", "cpuid-enumeration" },
    };
    for (const auto& [key, id] : rules) {
        if (text.contains(QLatin1String(key))) return QString::fromLatin1(id);
    }
    return {};
}

void ExplainPanel::showCapability(const CapabilityRow& row)
{
    QString md = QStringLiteral("## ") + row.name + QStringLiteral("\n\n");
    md += QStringLiteral("- **Value:** ") + (row.present ? row.value : tr("absent")) + QLatin1Char('\n');
    if (!row.origin.isEmpty()) md += QStringLiteral("- **Origin:** `") + row.origin + QStringLiteral("`\n");
    if (!row.sdmSection.isEmpty()) md += QStringLiteral("- **SDM section:** ") + row.sdmSection + QLatin1Char('\n');
    if (!row.present && !row.whyNot.isEmpty()) md += QStringLiteral("- **Why not:** ") + row.whyNot + QLatin1Char('\n');
    m_concept = conceptForCapability(row);
    const QString text = conceptText(m_concept);
    if (!text.isEmpty()) md += QStringLiteral("\n---\n\n") + text;
    m_browser->setMarkdown(md);
}

QString ExplainPanel::markdown() const
{
    return m_browser->toMarkdown();
}
