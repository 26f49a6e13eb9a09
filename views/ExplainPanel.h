// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

struct CapabilityRow;
class QTextBrowser;

/// Explain panel: what the selected capability, cell, counter or series is, how it is measured, its SDM section
/// and its pitfalls. Texts live in resources/explain/<concept>.md (one per concept).
class ExplainPanel : public QWidget {
    Q_OBJECT
public:
    explicit ExplainPanel(QWidget* parent = nullptr);

    /// Shows resources/explain/<conceptId>.md; false (and a "no text yet" note) when there is none.
    bool showConcept(const QString& conceptId);
    /// A capability line: its own facts first (value, origin, SDM section, why not), then its concept's text.
    void showCapability(const CapabilityRow& row);

    /// The concept a capability belongs to ("cat", "counter-wrap", ...), or "" (keywords of its name and group).
    static QString conceptForCapability(const CapabilityRow& row);
    /// The markdown of a concept, or "" when there is no such text.
    static QString conceptText(const QString& conceptId);
    static QStringList concepts();

    QString currentConcept() const { return m_concept; }
    /// The machine's vendor texts come first where there are any ("amd": cat-amd before cat); "" for the default
    /// (Intel's SDM) texts. Set by the window for each source.
    void setVendorVariant(const QString& variant);
    QString vendorVariant() const { return m_variant; }
    QString markdown() const;

private:
    QTextBrowser* m_browser;
    QString m_concept;
    QString m_variant;
};
