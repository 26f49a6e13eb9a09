// A header that the Qt-free check must reject (tests/CMakeLists.txt, capture_qt_check_detects_qt).
#include <QString>
