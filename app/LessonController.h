// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>

class LessonPanel;
class MainWindow;
class QAction;
class QDockWidget;
class QMenu;
namespace rdt::lesson {
class LessonRun;
}

/// The window's lessons (issue #22, docs/LESSONS.md): the Lessons menu and dock; starts a lesson on a fresh simulated
/// machine running its scenario's set-up, feeds the run the events the frame pump drains and the passing simulated
/// time, shows a PMU step's capture on the PMU pages, and turns a step's "look at" into the page it names with its
/// groups shown on the timeline.
class LessonController : public QObject {
    Q_OBJECT
public:
    /// Adds the Lessons dock (its toggle goes into `viewMenu` before `before`) and the Lessons menu before Help.
    LessonController(MainWindow* window, QMenu* viewMenu, QAction* before);
    ~LessonController() override;

    /// Starts `nameOrPath` (a built-in name or a lesson file); false with the reason.
    bool start(const QString& nameOrPath, QString* error);
    /// Ends the lesson: its PMU capture stops, the PMU pages let go of it, the panel empties.
    void stop();
    LessonPanel* panel() const { return m_panel; }
    const rdt::lesson::LessonRun* run() const { return m_run.get(); }

private:
    void onFrame();
    void lookAt(const QString& view, const QStringList& groups);

    MainWindow* m_window;
    LessonPanel* m_panel;
    QDockWidget* m_dock;
    std::unique_ptr<rdt::lesson::LessonRun> m_run;
    QString m_source; ///< the name or file the lesson was started with (Reset starts it again)
    std::optional<std::uint32_t> m_followed; ///< the lesson's PMU capture the PMU pages were given last
};
