// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// qcustomplot.h uses the `signals` and `foreach` keywords, which our hardening defines (QT_NO_KEYWORDS,
// QT_NO_FOREACH, as in KDAB/hotspot) switch off. Map them for this one header only.
#if defined(QT_NO_KEYWORDS) && !defined(signals)
#define signals Q_SIGNALS
#define RDTSCOPE_UNDEF_SIGNALS
#endif
#if (defined(QT_NO_FOREACH) || defined(QT_NO_KEYWORDS)) && !defined(foreach)
#define foreach(variable, container) for (variable : container)
#define RDTSCOPE_UNDEF_FOREACH
#endif

#include <qcustomplot.h>

#ifdef RDTSCOPE_UNDEF_SIGNALS
#undef signals
#undef RDTSCOPE_UNDEF_SIGNALS
#endif
#ifdef RDTSCOPE_UNDEF_FOREACH
#undef foreach
#undef RDTSCOPE_UNDEF_FOREACH
#endif
