// SPDX-License-Identifier: GPL-3.0-or-later
#include "Schema.h"

#include <string>

namespace rdt::session {

namespace {

// Keep in step with docs/SESSION-FORMAT.md. The whole schema must fit the first page (4096 bytes with its 100-byte
// header): a file cut anywhere after it still opens and names its tables (tests/session/test_damage.cpp checks).
// SQLite keeps each statement's text as written, so the statements are written without spaces they do not need;
// with telemetry_samples, 12 bytes of the first page are left (a further table needs a second schema page plan). Time
// columns are CLOCK_MONOTONIC nanoseconds (or simulated nanoseconds when meta.time_is_simulated = 1);
// meta.start_mono_ns is the origin of the session's time axis.
constexpr const char* kSchemaSql
    = "CREATE TABLE meta (key TEXT PRIMARY KEY,value TEXT NOT NULL) WITHOUT ROWID;\n"
      "CREATE TABLE machine (key TEXT PRIMARY KEY,value TEXT NOT NULL) WITHOUT ROWID;\n"
      "CREATE TABLE groups (id INTEGER PRIMARY KEY,path TEXT NOT NULL UNIQUE,first_ns INTEGER,last_ns INTEGER,samples "
      "INTEGER NOT NULL DEFAULT 0);\n"
      "CREATE TABLE group_membership (time_ns INTEGER NOT NULL,group_id INTEGER NOT NULL REFERENCES groups(id),tasks "
      "TEXT,cpus TEXT);\n"
      "CREATE INDEX group_membership_time ON group_membership(time_ns);\n"
      "CREATE TABLE rdt_samples (time_ns INTEGER NOT NULL,group_id INTEGER NOT NULL,domain INTEGER NOT "
      "NULL,occupancy_bytes INTEGER NOT NULL,mbm_total_bytes INTEGER NOT NULL,mbm_local_bytes INTEGER NOT "
      "NULL,mbm_total_bps REAL NOT NULL,mbm_local_bps REAL NOT NULL,flags INTEGER NOT NULL,PRIMARY KEY "
      "(time_ns,group_id,domain)) WITHOUT ROWID;\n"
      "CREATE TABLE telemetry_samples(time_ns INTEGER,group_id INTEGER,package INTEGER,event TEXT,value "
      "REAL,per_second REAL,flags INTEGER,PRIMARY KEY(time_ns,group_id,package,event))WITHOUT ROWID;\n"
      "CREATE TABLE rdt_summary (resolution_s INTEGER NOT NULL,bucket INTEGER NOT NULL,group_id INTEGER NOT "
      "NULL,domain INTEGER NOT NULL,count INTEGER NOT NULL,occ_min REAL,occ_max REAL,occ_mean REAL,total_bps_min "
      "REAL,total_bps_max REAL,total_bps_mean REAL,local_bps_min REAL,local_bps_max REAL,local_bps_mean REAL,sketch "
      "BLOB,PRIMARY KEY (resolution_s,bucket,group_id,domain)) WITHOUT ROWID;\n"
      "CREATE TABLE allocation_events (time_ns INTEGER NOT NULL,who TEXT,group_id INTEGER NOT NULL REFERENCES "
      "groups(id),resource TEXT NOT NULL,domain INTEGER NOT NULL,old_value TEXT,new_value TEXT,ok INTEGER NOT "
      "NULL,message TEXT);\n"
      "CREATE INDEX allocation_events_time ON allocation_events(time_ns);\n"
      "CREATE TABLE markers (time_ns INTEGER NOT NULL,kind TEXT,text TEXT);\n"
      "CREATE TABLE sweep_steps (sweep INTEGER NOT NULL,step INTEGER NOT NULL,kind TEXT NOT NULL,group_path TEXT NOT "
      "NULL,value INTEGER NOT NULL,written TEXT,start_ns INTEGER NOT NULL,end_ns INTEGER NOT NULL,occupancy_bytes "
      "REAL,total_bps REAL,local_bps REAL,victim TEXT,victim_occupancy_bytes REAL,victim_total_bps REAL,disturbed "
      "TEXT,PRIMARY KEY (sweep,step));\n"
      "CREATE TABLE sweep_pmu (sweep INTEGER NOT NULL,step INTEGER NOT NULL,ipc REAL,mpki REAL,memory_bound "
      "REAL,source TEXT,PRIMARY KEY (sweep,step));\n"
      "CREATE TABLE tma_intervals (start_ns INTEGER NOT NULL,end_ns INTEGER NOT NULL,scope TEXT NOT NULL,level INTEGER "
      "NOT NULL,metric TEXT NOT NULL,value REAL NOT NULL);\n"
      "CREATE INDEX tma_intervals_time ON tma_intervals(start_ns);\n"
      "CREATE TABLE pmu_batches (id INTEGER PRIMARY KEY,kind TEXT NOT NULL,start_ns INTEGER NOT NULL,end_ns INTEGER "
      "NOT NULL,count INTEGER NOT NULL,codec TEXT NOT NULL,raw_size INTEGER NOT NULL,data BLOB NOT NULL);\n"
      "CREATE INDEX pmu_batches_time ON pmu_batches(kind,start_ns);\n"
      "CREATE TABLE address_maps (time_ns INTEGER NOT NULL,pid INTEGER NOT NULL,start INTEGER NOT NULL,end INTEGER NOT "
      "NULL,pgoff INTEGER NOT NULL,path TEXT,build_id TEXT);\n"
      "CREATE TABLE symbols (path TEXT NOT NULL,address INTEGER NOT NULL,size INTEGER NOT NULL,name TEXT NOT "
      "NULL,PRIMARY KEY (path,address)) WITHOUT ROWID;\n";

const char* const kRequired[] = { "meta", "machine", "groups", "group_membership", "rdt_samples", "rdt_summary",
    "allocation_events", "markers", "tma_intervals", "pmu_batches", "address_maps", "symbols", nullptr };

} // namespace

const char* const* requiredTables()
{
    return kRequired;
}

Status createSchema(Database& db)
{
    if (auto s = db.exec("BEGIN IMMEDIATE"); !s) return s;
    std::string sql = kSchemaSql;
    sql += "PRAGMA application_id = " + std::to_string(kApplicationId) + ";";
    sql += "PRAGMA user_version = " + std::to_string(kSchemaVersion) + ";";
    sql += "INSERT INTO meta VALUES ('schema_version', '" + std::to_string(kSchemaVersion) + "');";
    sql += "INSERT INTO meta VALUES ('format', 'rdtscope-session');";
    // rdt_samples.flags name each MBM counter's own bad read (rdt/Sample.h); files without this key used one set.
    sql += "INSERT INTO meta VALUES ('mbm_flags', 'per-counter');";
    if (auto s = db.exec(sql); !s) {
        (void)db.exec("ROLLBACK");
        return s;
    }
    return db.exec("COMMIT");
}

} // namespace rdt::session
