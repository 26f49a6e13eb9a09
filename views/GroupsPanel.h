// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <functional>

class GroupControl;
class GroupModel;
class QLabel;
class QMenu;
class QToolButton;
class QTreeView;
class DistinctNameDelegate;

/// Groups dock: control and monitor groups with their tasks and CPUs; create, delete, add PIDs (process picker
/// over /proc) and CPUs. Every failure is shown with the backend's reason (permission, no such task, out of
/// CLOSIDs); without write access the buttons are disabled and the reason is shown.
class GroupsPanel : public QWidget {
    Q_OBJECT
public:
    explicit GroupsPanel(GroupModel* model, QWidget* parent = nullptr);

    /// Not owned; nullptr = no backend (e.g. a replay): read-only with that reason.
    void setControl(GroupControl* control, const QString& readOnlyReason = {});
    /// Re-lists the groups from the backend.
    void reload();

    // The operations behind the buttons (tests call them directly). Return false and show the reason on failure.
    bool createGroup(const QString& name, bool monitorOnly);
    bool removeSelected();
    bool addTasks(const QList<int>& pids);
    bool setCpus(const QString& cpuList);
    /// Assigns (or frees) the selected group's MBM counters in `domain` (-1 = all): what its context menu offers
    /// for the Unassigned rows of a machine with assignable counters.
    bool assignCounters(bool assign, int domain = -1);
    /// The context menu's counter entries: every domain, and per L3 domain where counters are assigned per group
    /// (GroupControl::counterDomains); disabled with the reason when read-only.
    void addCounterActions(QMenu* menu);

    QString errorText() const;
    QString readOnlyText() const;
    QTreeView* view() const { return m_view; }
    /// Where the process picker reads processes (tests point it at a fake tree).
    void setProcRoot(const QString& root) { m_procRoot = root; }

Q_SIGNALS:
    void groupsChanged();

private:
    QString selectedPath() const;
    bool selectedIsMonitor() const;
    bool report(const QString& what, bool ok, const QString& reason);
    void updateButtons();
    /// Names shortened to the name column so that no two groups read alike (DistinctElision.h).
    void shortenNames();
    void resizeEvent(QResizeEvent* event) override;
    void showContextMenu(const QPoint& pos);

    GroupModel* m_model;
    GroupControl* m_control = nullptr;
    QString m_readOnly;
    QString m_procRoot = QStringLiteral("/proc");
    QTreeView* m_view;
    DistinctNameDelegate* m_names = nullptr;
    QLabel* m_banner;
    QLabel* m_error;
    QToolButton* m_newControl;
    QToolButton* m_newMonitor;
    QToolButton* m_delete;
    QToolButton* m_addTasks;
    QToolButton* m_cpus;
};
