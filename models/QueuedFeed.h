// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SampleFeed.h"

#include <deque>
#include <utility>

/// A feed over batches handed to it on the GUI thread (tests, the frame benchmark, and sources that produce data
/// on the GUI thread such as a replay being stepped). drain() hands over at most maxBatches per frame.
class QueuedFeed : public SampleFeed {
public:
    explicit QueuedFeed(SourceDescription description)
        : m_description(std::move(description))
    { }
    SourceDescription description() const override { return m_description; }
    void push(rdt::RdtSampleBatch batch) { m_batches.push_back(std::move(batch)); }
    void push(rdt::AllocationChanged change) { m_changes.push_back(std::move(change)); }
    void push(FeedNote note) { m_notes.push_back(std::move(note)); }
    std::size_t pending() const { return m_batches.size(); }

    void drain(DrainedFrame& out, std::size_t maxBatches) override
    {
        for (std::size_t i = 0; i < maxBatches && !m_batches.empty(); ++i) {
            out.batches.push_back(std::move(m_batches.front()));
            m_batches.pop_front();
        }
        for (auto& c : m_changes)
            out.changes.push_back(std::move(c));
        m_changes.clear();
        for (auto& n : m_notes)
            out.notes.push_back(std::move(n));
        m_notes.clear();
        out.droppedTotal = m_dropped;
    }
    void setDropped(std::uint64_t dropped) { m_dropped = dropped; }

private:
    SourceDescription m_description;
    std::deque<rdt::RdtSampleBatch> m_batches;
    std::deque<rdt::AllocationChanged> m_changes;
    std::deque<FeedNote> m_notes;
    std::uint64_t m_dropped = 0;
};
