// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/AllocationModel.h"

#include <QColor>
#include <QPalette>

/// Cell colours of the heatmap, picked for contrast on the current (light or dark) palette.
/// Colour-blind friendly: blue / orange / green differ in lightness too; red is only used for invalid.
struct HeatmapPalette {
    explicit HeatmapPalette(const QPalette& palette)
    {
        const bool dark = palette.color(QPalette::Base).lightness() < 128;
        allocated = dark ? QColor(0x4f, 0x8f, 0xd8) : QColor(0x3b, 0x7d, 0xd8);
        overlapping = dark ? QColor(0xe8, 0x9c, 0x2e) : QColor(0xf0, 0xa0, 0x30);
        exclusive = dark ? QColor(0x3f, 0xb0, 0x63) : QColor(0x2e, 0x9e, 0x52);
        unused = dark ? QColor(0x3a, 0x3d, 0x42) : QColor(0xe4, 0xe6, 0xea);
        invalid = QColor(0xd9, 0x35, 0x35);
        hatch = dark ? QColor(255, 255, 255, 150) : QColor(0, 0, 0, 140);
        occupancy = dark ? QColor(255, 255, 255, 210) : QColor(0x20, 0x20, 0x28, 210);
        // I/O ways (io_alloc): purple, apart from the state colours and the red of invalid in both palettes.
        ioAlloc = dark ? QColor(0xd0, 0x8c, 0xff) : QColor(0x7a, 0x2e, 0xb8);
        // Rows another program changed (ExternalChangeMarks): magenta, none of the cell colours.
        external = dark ? QColor(0xff, 0x5c, 0xc8) : QColor(0xc0, 0x10, 0x8a);
    }

    QColor forState(AllocationModel::CellState s) const
    {
        switch (s) {
        case AllocationModel::Allocated:
            return allocated;
        case AllocationModel::Overlapping:
            return overlapping;
        case AllocationModel::Exclusive:
            return exclusive;
        case AllocationModel::Invalid:
            return invalid;
        case AllocationModel::Unused:
            break;
        }
        return unused;
    }

    QColor allocated, overlapping, exclusive, unused, invalid, hatch, occupancy, ioAlloc, external;
};
