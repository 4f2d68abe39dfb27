-- rocpd's schema as rocprofv3 writes it (<prefix>_results.db): AMD's rocpd schema, version 3, laid
-- out as AMD's rocprofv3 lays it out, so that a program written against AMD's schema reads
-- rocprofv3's databases unchanged (docs/rocpd.md, "The schema"). Embedded into the tool at build
-- time (rocpd/schema.hpp); tests/rocpd/check_amd_schema.py checks it against AMD's names.
--
-- Two placeholders, filled in by the writer before the text runs:
--   {{uuid}}  the run's table suffix: '_' followed by the run's UUID with each '-' made '_'
--             (rocpd_string_0190b5e2_6c1d_7a3e_9f00_1b2c3d4e5f60). Every table carries it.
--   {{guid}}  the run's UUID as text, with its hyphens: the guid column of every row.
-- Readers use the unsuffixed views (rocpd_string, ..., kernels, memory_copies, regions, top, busy):
-- each rocpd_<x> view is the rows of every rocpd_<x>{{uuid}} table in the file (one in a file
-- rocprofv3 wrote, one per run in a merged file), and the other views join on id and guid, so that
-- runs whose ids repeat stay apart. Tables and views named rocprofv3_* are this SDK's own additions
-- (AMD's readers look at rocpd_* only); the rocpd_* tables have AMD's columns and nothing more:
-- what CUDA or the host device adds goes into extdata (JSON) or a rocprofv3_* table.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------

CREATE TABLE "rocpd_metadata{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "tag" TEXT NOT NULL,
    "value" TEXT NOT NULL);

CREATE TABLE "rocpd_string{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "string" TEXT NOT NULL UNIQUE ON CONFLICT ABORT);

CREATE TABLE "rocpd_info_node{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "hash" BIGINT NOT NULL UNIQUE,
    "machine_id" TEXT NOT NULL UNIQUE,
    "system_name" TEXT, "hostname" TEXT, "release" TEXT, "version" TEXT,
    "hardware_name" TEXT, "domain_name" TEXT);

CREATE TABLE "rocpd_info_process{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "ppid" INTEGER,
    "pid" INTEGER NOT NULL,
    "init" BIGINT, "fini" BIGINT, "start" BIGINT, "end" BIGINT,
    "command" TEXT,
    "environment" JSONB NOT NULL DEFAULT '{}',
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_info_thread{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "ppid" INTEGER,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "tid" INTEGER NOT NULL,
    "name" TEXT,
    "start" BIGINT, "end" BIGINT,
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_info_agent{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "type" TEXT CHECK ("type" IN ('CPU', 'GPU', 'NIC')),
    "absolute_index" INTEGER, "logical_index" INTEGER, "type_index" INTEGER,
    "uuid" INTEGER,
    "name" TEXT, "model_name" TEXT, "vendor_name" TEXT, "product_name" TEXT, "user_name" TEXT,
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_info_queue{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "name" TEXT,
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_info_stream{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "name" TEXT,
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_info_pmc{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "agent_id" INTEGER REFERENCES "rocpd_info_agent{{uuid}}" ("id") ON UPDATE CASCADE,
    "target_arch" TEXT CHECK ("target_arch" IN ('CPU', 'GPU', 'NIC')),
    "event_code" INT,
    "instance_id" INTEGER,
    "name" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "description" TEXT,
    "long_description" TEXT DEFAULT '',
    "component" TEXT,
    "units" TEXT DEFAULT '',
    "value_type" TEXT CHECK ("value_type" IN ('ABS', 'ACCUM', 'RELATIVE')),
    "block" TEXT,
    "expression" TEXT,
    "is_constant" INTEGER,
    "is_derived" INTEGER,
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_info_code_object{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "agent_id" INTEGER REFERENCES "rocpd_info_agent{{uuid}}" ("id") ON UPDATE CASCADE,
    "uri" TEXT,
    "load_base" BIGINT, "load_size" BIGINT, "load_delta" BIGINT,
    "storage_type" TEXT CHECK ("storage_type" IN ('FILE', 'MEMORY')),
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_info_kernel_symbol{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "code_object_id" INTEGER NOT NULL
        REFERENCES "rocpd_info_code_object{{uuid}}" ("id") ON UPDATE CASCADE,
    "kernel_name" TEXT, "display_name" TEXT,
    "kernel_object" INTEGER,
    "kernarg_segment_size" INTEGER, "kernarg_segment_alignment" INTEGER,
    "group_segment_size" INTEGER, "private_segment_size" INTEGER,
    "sgpr_count" INTEGER, "arch_vgpr_count" INTEGER, "accum_vgpr_count" INTEGER,
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_track{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "tid" INTEGER REFERENCES "rocpd_info_thread{{uuid}}" ("id") ON UPDATE CASCADE,
    "name_id" INTEGER REFERENCES "rocpd_string{{uuid}}" ("id") ON UPDATE CASCADE,
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_event{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "category_id" INTEGER REFERENCES "rocpd_string{{uuid}}" ("id") ON UPDATE CASCADE,
    "stack_id" INTEGER, "parent_stack_id" INTEGER, "correlation_id" INTEGER,
    "call_stack" JSONB NOT NULL DEFAULT '{}',
    "line_info" JSONB NOT NULL DEFAULT '{}',
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_arg{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "event_id" INTEGER NOT NULL REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "position" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "value" TEXT,
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_pmc_event{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "event_id" INTEGER REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "pmc_id" INTEGER NOT NULL REFERENCES "rocpd_info_pmc{{uuid}}" ("id") ON UPDATE CASCADE,
    "value" REAL DEFAULT 0.0,
    "extdata" JSONB DEFAULT '{}');

CREATE TABLE "rocpd_region{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "tid" INTEGER NOT NULL REFERENCES "rocpd_info_thread{{uuid}}" ("id") ON UPDATE CASCADE,
    "start" BIGINT NOT NULL, "end" BIGINT NOT NULL,
    "name_id" INTEGER NOT NULL REFERENCES "rocpd_string{{uuid}}" ("id") ON UPDATE CASCADE,
    "event_id" INTEGER REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_sample{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "track_id" INTEGER NOT NULL REFERENCES "rocpd_track{{uuid}}" ("id") ON UPDATE CASCADE,
    "timestamp" BIGINT NOT NULL,
    "event_id" INTEGER REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_kernel_dispatch{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "tid" INTEGER REFERENCES "rocpd_info_thread{{uuid}}" ("id") ON UPDATE CASCADE,
    "agent_id" INTEGER NOT NULL REFERENCES "rocpd_info_agent{{uuid}}" ("id") ON UPDATE CASCADE,
    "kernel_id" INTEGER NOT NULL
        REFERENCES "rocpd_info_kernel_symbol{{uuid}}" ("id") ON UPDATE CASCADE,
    "dispatch_id" INTEGER NOT NULL,
    "queue_id" INTEGER NOT NULL REFERENCES "rocpd_info_queue{{uuid}}" ("id") ON UPDATE CASCADE,
    "stream_id" INTEGER NOT NULL REFERENCES "rocpd_info_stream{{uuid}}" ("id") ON UPDATE CASCADE,
    "start" BIGINT NOT NULL, "end" BIGINT NOT NULL,
    "private_segment_size" INTEGER, "group_segment_size" INTEGER,
    "workgroup_size_x" INTEGER NOT NULL, "workgroup_size_y" INTEGER NOT NULL,
    "workgroup_size_z" INTEGER NOT NULL,
    "grid_size_x" INTEGER NOT NULL, "grid_size_y" INTEGER NOT NULL, "grid_size_z" INTEGER NOT NULL,
    "region_name_id" INTEGER REFERENCES "rocpd_string{{uuid}}" ("id") ON UPDATE CASCADE,
    "event_id" INTEGER REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_memory_copy{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "tid" INTEGER REFERENCES "rocpd_info_thread{{uuid}}" ("id") ON UPDATE CASCADE,
    "start" BIGINT NOT NULL, "end" BIGINT NOT NULL,
    "name_id" INTEGER NOT NULL REFERENCES "rocpd_string{{uuid}}" ("id") ON UPDATE CASCADE,
    "dst_agent_id" INTEGER REFERENCES "rocpd_info_agent{{uuid}}" ("id") ON UPDATE CASCADE,
    "dst_address" INTEGER,
    "src_agent_id" INTEGER REFERENCES "rocpd_info_agent{{uuid}}" ("id") ON UPDATE CASCADE,
    "src_address" INTEGER,
    "size" INTEGER NOT NULL,
    "queue_id" INTEGER REFERENCES "rocpd_info_queue{{uuid}}" ("id") ON UPDATE CASCADE,
    "stream_id" INTEGER REFERENCES "rocpd_info_stream{{uuid}}" ("id") ON UPDATE CASCADE,
    "region_name_id" INTEGER REFERENCES "rocpd_string{{uuid}}" ("id") ON UPDATE CASCADE,
    "event_id" INTEGER REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "extdata" JSONB NOT NULL DEFAULT '{}');

CREATE TABLE "rocpd_memory_allocate{{uuid}}" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "nid" INTEGER NOT NULL REFERENCES "rocpd_info_node{{uuid}}" ("id") ON UPDATE CASCADE,
    "pid" INTEGER NOT NULL REFERENCES "rocpd_info_process{{uuid}}" ("id") ON UPDATE CASCADE,
    "tid" INTEGER REFERENCES "rocpd_info_thread{{uuid}}" ("id") ON UPDATE CASCADE,
    "agent_id" INTEGER REFERENCES "rocpd_info_agent{{uuid}}" ("id") ON UPDATE CASCADE,
    "type" TEXT CHECK ("type" IN ('ALLOC', 'FREE', 'REALLOC', 'RECLAIM')),
    "level" TEXT CHECK ("level" IN ('REAL', 'VIRTUAL', 'SCRATCH')),
    "start" BIGINT NOT NULL, "end" BIGINT NOT NULL,
    "address" INTEGER,
    "size" INTEGER NOT NULL,
    "queue_id" INTEGER REFERENCES "rocpd_info_queue{{uuid}}" ("id") ON UPDATE CASCADE,
    "stream_id" INTEGER REFERENCES "rocpd_info_stream{{uuid}}" ("id") ON UPDATE CASCADE,
    "event_id" INTEGER REFERENCES "rocpd_event{{uuid}}" ("id") ON UPDATE CASCADE,
    "extdata" JSONB NOT NULL DEFAULT '{}');

-- This SDK's own: what kernel replay did with each dispatch rocprofv3 asked to replay
-- (docs/rocprofv3.md, "What kernel replay could not collect"). dispatch_id is the dispatch's
-- dispatch_id, agent_id and kernel_id are ids of this run's rocpd_info_agent and
-- rocpd_info_kernel_symbol rows.
CREATE TABLE "rocprofv3_kernel_replay_outcome{{uuid}}" (
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "dispatch_id" INTEGER NOT NULL,
    "agent_id" INTEGER, "kernel_id" INTEGER,
    "outcome" TEXT NOT NULL, "reason" TEXT NOT NULL,
    "passes_run" INTEGER, "passes_planned" INTEGER,
    "snapshot_bytes" INTEGER, "written_bytes" INTEGER, "verified_bytes" INTEGER,
    "failed_pass" INTEGER,
    "missing_groups" JSONB NOT NULL DEFAULT '[]');

-- This SDK's own: the bytes of a name from the application that is not valid UTF-8 (the TEXT
-- column shows it with U+FFFD for each ill-formed part). table_name is the unsuffixed name of the
-- table holding the row (rocpd_string or rocpd_info_kernel_symbol), row_id that row's id in this
-- run (docs/rocprofv3.md, "Names that are not valid UTF-8").
CREATE TABLE "rocprofv3_raw_name{{uuid}}" (
    "guid" TEXT NOT NULL DEFAULT '{{guid}}',
    "table_name" TEXT NOT NULL,
    "row_id" INTEGER NOT NULL,
    "raw" BLOB NOT NULL,
    UNIQUE ("table_name", "row_id", "raw"));

-- The run's metadata. uuid is the suffix itself (readers strip it from the table names to find
-- the views), guid the value of every row's guid column. The writer adds its own tags after these
-- (writer, command, pid, hostname, agent_index, rank, size, job_id: docs/rocpd.md).
INSERT INTO "rocpd_metadata{{uuid}}" ("tag", "value")
VALUES ('schema_version', '3'), ('uuid', '{{uuid}}'), ('guid', '{{guid}}');

-- ---------------------------------------------------------------------------------------------
-- One view per table, without the suffix. `rocpd merge` replaces each with the UNION ALL of the
-- same table of every run in the merged file.
-- ---------------------------------------------------------------------------------------------

CREATE VIEW "rocpd_metadata" AS SELECT * FROM "rocpd_metadata{{uuid}}";
CREATE VIEW "rocpd_string" AS SELECT * FROM "rocpd_string{{uuid}}";
CREATE VIEW "rocpd_info_node" AS SELECT * FROM "rocpd_info_node{{uuid}}";
CREATE VIEW "rocpd_info_process" AS SELECT * FROM "rocpd_info_process{{uuid}}";
CREATE VIEW "rocpd_info_thread" AS SELECT * FROM "rocpd_info_thread{{uuid}}";
CREATE VIEW "rocpd_info_agent" AS SELECT * FROM "rocpd_info_agent{{uuid}}";
CREATE VIEW "rocpd_info_queue" AS SELECT * FROM "rocpd_info_queue{{uuid}}";
CREATE VIEW "rocpd_info_stream" AS SELECT * FROM "rocpd_info_stream{{uuid}}";
CREATE VIEW "rocpd_info_pmc" AS SELECT * FROM "rocpd_info_pmc{{uuid}}";
CREATE VIEW "rocpd_info_code_object" AS SELECT * FROM "rocpd_info_code_object{{uuid}}";
CREATE VIEW "rocpd_info_kernel_symbol" AS SELECT * FROM "rocpd_info_kernel_symbol{{uuid}}";
CREATE VIEW "rocpd_track" AS SELECT * FROM "rocpd_track{{uuid}}";
CREATE VIEW "rocpd_event" AS SELECT * FROM "rocpd_event{{uuid}}";
CREATE VIEW "rocpd_arg" AS SELECT * FROM "rocpd_arg{{uuid}}";
CREATE VIEW "rocpd_pmc_event" AS SELECT * FROM "rocpd_pmc_event{{uuid}}";
CREATE VIEW "rocpd_region" AS SELECT * FROM "rocpd_region{{uuid}}";
CREATE VIEW "rocpd_sample" AS SELECT * FROM "rocpd_sample{{uuid}}";
CREATE VIEW "rocpd_kernel_dispatch" AS SELECT * FROM "rocpd_kernel_dispatch{{uuid}}";
CREATE VIEW "rocpd_memory_copy" AS SELECT * FROM "rocpd_memory_copy{{uuid}}";
CREATE VIEW "rocpd_memory_allocate" AS SELECT * FROM "rocpd_memory_allocate{{uuid}}";
CREATE VIEW "rocprofv3_kernel_replay_outcome" AS
    SELECT * FROM "rocprofv3_kernel_replay_outcome{{uuid}}";
CREATE VIEW "rocprofv3_raw_name" AS SELECT * FROM "rocprofv3_raw_name{{uuid}}";

-- ---------------------------------------------------------------------------------------------
-- The views AMD's tools query, with AMD's column names in AMD's order. They read the unsuffixed
-- views only and join on id and guid. Where AMD's views join with INNER JOIN, these do too: a
-- row whose reference is missing is left out here exactly as AMD's readers leave it out, and the
-- writer's invariants (docs/design/rocpd_amd_schema.md) make sure no row of rocprofv3's has one.
-- ---------------------------------------------------------------------------------------------

CREATE VIEW "code_objects" AS
SELECT co.id, co.guid, co.nid, pr.pid, ag.absolute_index AS agent_abs_index, co.uri,
    co.load_base, co.load_size, co.load_delta, co.storage_type AS storage_type_str,
    json_extract(co.extdata, '$.size') AS code_object_size,
    json_extract(co.extdata, '$.storage_type') AS storage_type,
    json_extract(co.extdata, '$.memory_base') AS memory_base,
    json_extract(co.extdata, '$.memory_size') AS memory_size
FROM rocpd_info_code_object AS co
JOIN rocpd_info_agent AS ag ON ag.id = co.agent_id AND ag.guid = co.guid
JOIN rocpd_info_process AS pr ON pr.id = co.pid AND pr.guid = co.guid;

CREATE VIEW "kernel_symbols" AS
SELECT ks.id, ks.guid, ks.nid, pr.pid, ks.code_object_id, ks.kernel_name, ks.display_name,
    ks.kernel_object, ks.kernarg_segment_size, ks.kernarg_segment_alignment,
    ks.group_segment_size, ks.private_segment_size, ks.sgpr_count, ks.arch_vgpr_count,
    ks.accum_vgpr_count,
    json_extract(ks.extdata, '$.size') AS kernel_symbol_size,
    json_extract(ks.extdata, '$.kernel_id') AS kernel_id,
    json_extract(ks.extdata, '$.kernel_code_entry_byte_offset') AS kernel_code_entry_byte_offset,
    json_extract(ks.extdata, '$.formatted_kernel_name') AS formatted_kernel_name,
    json_extract(ks.extdata, '$.demangled_kernel_name') AS demangled_kernel_name,
    json_extract(ks.extdata, '$.truncated_kernel_name') AS truncated_kernel_name,
    json_extract(ks.extdata, '$.kernel_address.handle') AS kernel_address
FROM rocpd_info_kernel_symbol AS ks
JOIN rocpd_info_process AS pr ON pr.id = ks.pid AND pr.guid = ks.guid;

CREATE VIEW "processes" AS
SELECT nd.id AS nid, nd.machine_id, nd.system_name, nd.hostname, nd.release AS system_release,
    nd.version AS system_version, pr.guid, pr.ppid, pr.pid, pr.init, pr.start, pr."end",
    pr.fini, pr.command
FROM rocpd_info_process AS pr
JOIN rocpd_info_node AS nd ON nd.id = pr.nid AND nd.guid = pr.guid;

CREATE VIEW "threads" AS
SELECT nd.id AS nid, nd.machine_id, nd.system_name, nd.hostname, nd.release AS system_release,
    nd.version AS system_version, pr.guid, pr.ppid, pr.pid, th.tid, th.start, th."end", th.name
FROM rocpd_info_thread AS th
JOIN rocpd_info_process AS pr ON pr.id = th.pid AND pr.guid = th.guid
JOIN rocpd_info_node AS nd ON nd.id = th.nid AND nd.guid = th.guid;

CREATE VIEW "regions" AS
SELECT rg.id, rg.guid, cat.string AS category, nm.string AS name, rg.nid, pr.pid, th.tid,
    rg.start, rg."end", rg."end" - rg.start AS duration, rg.event_id, ev.stack_id,
    ev.parent_stack_id, ev.correlation_id AS corr_id, ev.extdata, ev.call_stack, ev.line_info
FROM rocpd_region AS rg
JOIN rocpd_event AS ev ON ev.id = rg.event_id AND ev.guid = rg.guid
LEFT JOIN rocpd_string AS cat ON cat.id = ev.category_id AND cat.guid = ev.guid
JOIN rocpd_string AS nm ON nm.id = rg.name_id AND nm.guid = rg.guid
JOIN rocpd_info_process AS pr ON pr.id = rg.pid AND pr.guid = rg.guid
JOIN rocpd_info_thread AS th ON th.id = rg.tid AND th.guid = rg.guid;

CREATE VIEW "region_args" AS
SELECT rg.id, rg.guid, rg.nid, pr.pid, arg.type, arg.name, arg.value
FROM rocpd_region AS rg
JOIN rocpd_event AS ev ON ev.id = rg.event_id AND ev.guid = rg.guid
JOIN rocpd_arg AS arg ON arg.event_id = ev.id AND arg.guid = rg.guid
JOIN rocpd_info_process AS pr ON pr.id = rg.pid AND pr.guid = rg.guid;

CREATE VIEW "samples" AS
SELECT sm.id, sm.guid, cat.string AS category, nm.string AS name, tr.nid, pr.pid, th.tid,
    sm.timestamp, sm.event_id, ev.stack_id, ev.parent_stack_id, ev.correlation_id AS corr_id,
    ev.extdata, ev.call_stack, ev.line_info
FROM rocpd_sample AS sm
JOIN rocpd_track AS tr ON tr.id = sm.track_id AND tr.guid = sm.guid
JOIN rocpd_event AS ev ON ev.id = sm.event_id AND ev.guid = sm.guid
LEFT JOIN rocpd_string AS cat ON cat.id = ev.category_id AND cat.guid = ev.guid
LEFT JOIN rocpd_string AS nm ON nm.id = tr.name_id AND nm.guid = tr.guid
JOIN rocpd_info_process AS pr ON pr.id = tr.pid AND pr.guid = tr.guid
JOIN rocpd_info_thread AS th ON th.id = tr.tid AND th.guid = tr.guid;

-- A sample as a region of no length: the columns of regions, so that the two stack.
CREATE VIEW "sample_regions" AS
SELECT id, guid, category, name, nid, pid, tid, timestamp AS start, timestamp AS "end",
    0 AS duration, event_id, stack_id, parent_stack_id, corr_id, extdata, call_stack, line_info
FROM samples;

CREATE VIEW "regions_and_samples" AS
SELECT * FROM regions UNION ALL SELECT * FROM sample_regions;

CREATE VIEW "kernels" AS
SELECT kd.id, kd.guid, th.tid, cat.string AS category, rn.string AS region,
    ks.display_name AS name, kd.nid, pr.pid, ag.absolute_index AS agent_abs_index,
    ag.logical_index AS agent_log_index, ag.type_index AS agent_type_index, ag.type AS agent_type,
    ks.code_object_id, kd.kernel_id, kd.dispatch_id, kd.stream_id, kd.queue_id, qu.name AS queue,
    st.name AS stream, kd.start, kd."end", kd."end" - kd.start AS duration,
    kd.grid_size_x AS grid_x, kd.grid_size_y AS grid_y, kd.grid_size_z AS grid_z,
    kd.workgroup_size_x AS workgroup_x, kd.workgroup_size_y AS workgroup_y,
    kd.workgroup_size_z AS workgroup_z, kd.group_segment_size AS lds_size,
    kd.private_segment_size AS scratch_size, ks.arch_vgpr_count AS vgpr_count,
    ks.accum_vgpr_count, ks.sgpr_count, ks.group_segment_size AS static_lds_size,
    ks.private_segment_size AS static_scratch_size, ev.stack_id, ev.parent_stack_id,
    ev.correlation_id AS corr_id
FROM rocpd_kernel_dispatch AS kd
JOIN rocpd_info_agent AS ag ON ag.id = kd.agent_id AND ag.guid = kd.guid
JOIN rocpd_event AS ev ON ev.id = kd.event_id AND ev.guid = kd.guid
LEFT JOIN rocpd_string AS cat ON cat.id = ev.category_id AND cat.guid = ev.guid
JOIN rocpd_string AS rn ON rn.id = kd.region_name_id AND rn.guid = kd.guid
JOIN rocpd_info_kernel_symbol AS ks ON ks.id = kd.kernel_id AND ks.guid = kd.guid
LEFT JOIN rocpd_info_stream AS st ON st.id = kd.stream_id AND st.guid = kd.guid
LEFT JOIN rocpd_info_queue AS qu ON qu.id = kd.queue_id AND qu.guid = kd.guid
JOIN rocpd_info_process AS pr ON pr.id = kd.pid AND pr.guid = kd.guid
JOIN rocpd_info_thread AS th ON th.id = kd.tid AND th.guid = kd.guid;

CREATE VIEW "pmc_info" AS
SELECT pi.id, pi.guid, pi.nid, pr.pid, ag.absolute_index AS agent_abs_index, pi.is_constant,
    pi.is_derived, pi.name, pi.description, pi.block, pi.expression
FROM rocpd_info_pmc AS pi
JOIN rocpd_info_agent AS ag ON ag.id = pi.agent_id AND ag.guid = pi.guid
JOIN rocpd_info_process AS pr ON pr.id = pi.pid AND pr.guid = pi.guid;

CREATE VIEW "pmc_events" AS
SELECT pe.id, pe.guid, pe.pmc_id, ev.id AS event_id, cat.string AS category,
    ks.display_name AS name, kd.nid, pr.pid, kd.dispatch_id, kd.start, kd."end",
    kd."end" - kd.start AS duration, pi.name AS counter_name, pe.value AS counter_value
FROM rocpd_pmc_event AS pe
JOIN rocpd_info_pmc AS pi ON pi.id = pe.pmc_id AND pi.guid = pe.guid
JOIN rocpd_event AS ev ON ev.id = pe.event_id AND ev.guid = pe.guid
LEFT JOIN rocpd_string AS cat ON cat.id = ev.category_id AND cat.guid = ev.guid
JOIN rocpd_kernel_dispatch AS kd ON kd.event_id = pe.event_id AND kd.guid = pe.guid
LEFT JOIN rocpd_info_kernel_symbol AS ks ON ks.id = kd.kernel_id AND ks.guid = kd.guid
JOIN rocpd_info_process AS pr ON pr.id = kd.pid AND pr.guid = kd.guid;

CREATE VIEW "events_args" AS
SELECT ev.id AS event_id, cat.string AS category, ev.stack_id, ev.parent_stack_id,
    ev.correlation_id, arg.position AS arg_position, arg.type AS arg_type, arg.name AS arg_name,
    arg.value AS arg_value, ev.call_stack, ev.line_info, arg.extdata
FROM rocpd_event AS ev
JOIN rocpd_arg AS arg ON arg.event_id = ev.id AND arg.guid = ev.guid
LEFT JOIN rocpd_string AS cat ON cat.id = ev.category_id AND cat.guid = ev.guid;

-- Arguments named "stream" whose extdata names a stream row, with that stream.
CREATE VIEW "stream_args" AS
SELECT arg.id AS argument_id, arg.event_id, arg.position AS arg_position, arg.type AS arg_type,
    arg.value AS arg_value, json_extract(arg.extdata, '$.stream_id') AS stream_id, st.nid,
    pr.pid, st.name AS stream_name, st.extdata
FROM rocpd_arg AS arg
JOIN rocpd_info_stream AS st
    ON st.id = json_extract(arg.extdata, '$.stream_id') AND st.guid = arg.guid
JOIN rocpd_info_process AS pr ON pr.id = st.pid AND pr.guid = st.guid
WHERE arg.name = 'stream';

CREATE VIEW "memory_copies" AS
SELECT mc.id, mc.guid, cat.string AS category, mc.nid, pr.pid, th.tid, mc.start, mc."end",
    mc."end" - mc.start AS duration, nm.string AS name, rn.string AS region_name, mc.stream_id,
    mc.queue_id, st.name AS stream_name, qu.name AS queue_name, mc.size,
    dst.name AS dst_device, dst.absolute_index AS dst_agent_abs_index,
    dst.logical_index AS dst_agent_log_index, dst.type_index AS dst_agent_type_index,
    dst.type AS dst_agent_type, mc.dst_address,
    src.name AS src_device, src.absolute_index AS src_agent_abs_index,
    src.logical_index AS src_agent_log_index, src.type_index AS src_agent_type_index,
    src.type AS src_agent_type, mc.src_address,
    ev.stack_id, ev.parent_stack_id, ev.correlation_id AS corr_id
FROM rocpd_memory_copy AS mc
JOIN rocpd_string AS nm ON nm.id = mc.name_id AND nm.guid = mc.guid
LEFT JOIN rocpd_string AS rn ON rn.id = mc.region_name_id AND rn.guid = mc.guid
JOIN rocpd_info_agent AS dst ON dst.id = mc.dst_agent_id AND dst.guid = mc.guid
JOIN rocpd_info_agent AS src ON src.id = mc.src_agent_id AND src.guid = mc.guid
LEFT JOIN rocpd_info_queue AS qu ON qu.id = mc.queue_id AND qu.guid = mc.guid
LEFT JOIN rocpd_info_stream AS st ON st.id = mc.stream_id AND st.guid = mc.guid
JOIN rocpd_event AS ev ON ev.id = mc.event_id AND ev.guid = mc.guid
LEFT JOIN rocpd_string AS cat ON cat.id = ev.category_id AND cat.guid = ev.guid
JOIN rocpd_info_process AS pr ON pr.id = mc.pid AND pr.guid = mc.guid
JOIN rocpd_info_thread AS th ON th.id = mc.tid AND th.guid = mc.guid;

CREATE VIEW "memory_allocations" AS
SELECT ma.id, ma.guid, cat.string AS category, ma.nid, pr.pid, th.tid, ma.start, ma."end",
    ma."end" - ma.start AS duration, ma.type, ma.level, ag.name AS agent_name,
    ag.absolute_index AS agent_abs_index, ag.logical_index AS agent_log_index,
    ag.type_index AS agent_type_index, ag.type AS agent_type, ma.address, ma.size, ma.queue_id,
    qu.name AS queue_name, ma.stream_id, st.name AS stream_name, ev.stack_id,
    ev.parent_stack_id, ev.correlation_id AS corr_id
FROM rocpd_memory_allocate AS ma
LEFT JOIN rocpd_info_agent AS ag ON ag.id = ma.agent_id AND ag.guid = ma.guid
LEFT JOIN rocpd_info_queue AS qu ON qu.id = ma.queue_id AND qu.guid = ma.guid
LEFT JOIN rocpd_info_stream AS st ON st.id = ma.stream_id AND st.guid = ma.guid
JOIN rocpd_event AS ev ON ev.id = ma.event_id AND ev.guid = ma.guid
LEFT JOIN rocpd_string AS cat ON cat.id = ev.category_id AND cat.guid = ev.guid
JOIN rocpd_info_process AS pr ON pr.id = ma.pid AND pr.guid = ma.guid
JOIN rocpd_info_thread AS th ON th.id = ma.tid AND th.guid = ma.guid;

CREATE VIEW "scratch_memory" AS
SELECT ma.id, ma.guid, ma.nid, pr.pid, ma.type AS operation, ag.name AS agent_name,
    ag.absolute_index AS agent_abs_index, ag.logical_index AS agent_log_index,
    ag.type_index AS agent_type_index, ag.type AS agent_type, ma.queue_id, th.tid,
    json_extract(ma.extdata, '$.flags') AS alloc_flags, ma.start, ma."end",
    ma."end" - ma.start AS duration, ma.size, ma.address, ev.correlation_id, ev.stack_id,
    ev.parent_stack_id, ev.correlation_id AS corr_id, cat.string AS category,
    ev.extdata AS event_extdata
FROM rocpd_memory_allocate AS ma
LEFT JOIN rocpd_info_agent AS ag ON ag.id = ma.agent_id AND ag.guid = ma.guid
JOIN rocpd_event AS ev ON ev.id = ma.event_id AND ev.guid = ma.guid
LEFT JOIN rocpd_string AS cat ON cat.id = ev.category_id AND cat.guid = ev.guid
JOIN rocpd_info_process AS pr ON pr.id = ma.pid AND pr.guid = ma.guid
JOIN rocpd_info_thread AS th ON th.id = ma.tid AND th.guid = ma.guid
WHERE ma.level = 'SCRATCH'
ORDER BY ma.start;

-- One row per dispatch, counter and agent: the counter's values over its instances summed.
CREATE VIEW "counters_collection" AS
SELECT MIN(pe.id) AS id, pe.guid, kd.dispatch_id, kd.kernel_id, ev.id AS event_id,
    ev.correlation_id, ev.stack_id, ev.parent_stack_id, pr.pid, th.tid, kd.agent_id,
    ag.absolute_index AS agent_abs_index, ag.logical_index AS agent_log_index,
    ag.type_index AS agent_type_index, ag.type AS agent_type, kd.queue_id, kd.grid_size_x,
    kd.grid_size_y, kd.grid_size_z, kd.grid_size_x * kd.grid_size_y * kd.grid_size_z AS grid_size,
    ks.display_name AS kernel_name, rn.string AS kernel_region, kd.workgroup_size_x,
    kd.workgroup_size_y, kd.workgroup_size_z,
    kd.workgroup_size_x * kd.workgroup_size_y * kd.workgroup_size_z AS workgroup_size,
    kd.group_segment_size AS lds_block_size, kd.private_segment_size AS scratch_size,
    ks.arch_vgpr_count AS vgpr_count, ks.accum_vgpr_count, ks.sgpr_count,
    pi.name AS counter_name, pi.symbol AS counter_symbol, pi.component, pi.description,
    pi.block, pi.expression, pi.value_type, pi.id AS counter_id, SUM(pe.value) AS value,
    kd.start, kd."end", pi.is_constant, pi.is_derived, kd."end" - kd.start AS duration,
    cat.string AS category, kd.nid, ev.extdata, ks.code_object_id
FROM rocpd_pmc_event AS pe
JOIN rocpd_info_pmc AS pi ON pi.id = pe.pmc_id AND pi.guid = pe.guid
JOIN rocpd_event AS ev ON ev.id = pe.event_id AND ev.guid = pe.guid
LEFT JOIN rocpd_string AS cat ON cat.id = ev.category_id AND cat.guid = ev.guid
JOIN rocpd_kernel_dispatch AS kd ON kd.event_id = pe.event_id AND kd.guid = pe.guid
LEFT JOIN rocpd_string AS rn ON rn.id = kd.region_name_id AND rn.guid = kd.guid
JOIN rocpd_info_agent AS ag ON ag.id = kd.agent_id AND ag.guid = kd.guid
JOIN rocpd_info_kernel_symbol AS ks ON ks.id = kd.kernel_id AND ks.guid = kd.guid
JOIN rocpd_info_process AS pr ON pr.id = kd.pid AND pr.guid = kd.guid
JOIN rocpd_info_thread AS th ON th.id = kd.tid AND th.guid = kd.guid
GROUP BY pe.guid, kd.dispatch_id, pi.name, kd.agent_id;

-- ---------------------------------------------------------------------------------------------
-- Summary views. Durations in microseconds (nanoseconds / 1000.0); average is the whole-
-- nanosecond mean (integer division) in microseconds; percentage of the total over the view's
-- operations.
-- ---------------------------------------------------------------------------------------------

CREATE VIEW "top_kernels" AS
SELECT ks.display_name AS name, COUNT(kd.kernel_id) AS total_calls,
    SUM(kd."end" - kd.start) / 1000.0 AS total_duration,
    (SUM(kd."end" - kd.start) / COUNT(kd.kernel_id)) / 1000.0 AS average,
    SUM(kd."end" - kd.start) * 100.0 /
        (SELECT SUM(all_kd."end" - all_kd.start) FROM rocpd_kernel_dispatch AS all_kd)
        AS percentage
FROM rocpd_kernel_dispatch AS kd
JOIN rocpd_info_kernel_symbol AS ks ON ks.id = kd.kernel_id AND ks.guid = kd.guid
GROUP BY name
ORDER BY total_duration DESC;

-- Per agent (and run): the time its kernels and the copies into it took, over the wall time from
-- the first start to the last end of any dispatch or copy in the file.
CREATE VIEW "busy" AS
SELECT per_agent.agent_id, ag.type, per_agent.GpuTime, wall.WallTime,
    per_agent.GpuTime * 1.0 / wall.WallTime AS Busy
FROM (SELECT agent_id, guid, SUM(op_end - op_start) AS GpuTime
      FROM (SELECT agent_id, guid, start AS op_start, "end" AS op_end
            FROM rocpd_kernel_dispatch
            UNION ALL
            SELECT dst_agent_id, guid, start, "end" FROM rocpd_memory_copy)
      GROUP BY agent_id, guid) AS per_agent
JOIN (SELECT MAX(op_end) - MIN(op_start) AS WallTime
      FROM (SELECT start AS op_start, "end" AS op_end FROM rocpd_kernel_dispatch
            UNION ALL
            SELECT start, "end" FROM rocpd_memory_copy)) AS wall ON 1 = 1
JOIN rocpd_info_agent AS ag ON ag.id = per_agent.agent_id AND ag.guid = per_agent.guid;

-- Kernels, copies and regions together, by name.
CREATE VIEW "top" AS
SELECT ops.name, COUNT(*) AS total_calls, SUM(ops.duration) / 1000.0 AS total_duration,
    (SUM(ops.duration) / COUNT(*)) / 1000.0 AS average,
    SUM(ops.duration) * 100.0 / total.total_time AS percentage
FROM (SELECT ks.display_name AS name, kd."end" - kd.start AS duration
      FROM rocpd_kernel_dispatch AS kd
      JOIN rocpd_info_kernel_symbol AS ks ON ks.id = kd.kernel_id AND ks.guid = kd.guid
      UNION ALL
      SELECT nm.string, mc."end" - mc.start
      FROM rocpd_memory_copy AS mc
      JOIN rocpd_string AS nm ON nm.id = mc.name_id AND nm.guid = mc.guid
      UNION ALL
      SELECT nm.string, rg."end" - rg.start
      FROM rocpd_region AS rg
      JOIN rocpd_string AS nm ON nm.id = rg.name_id AND nm.guid = rg.guid) AS ops
CROSS JOIN (SELECT SUM(op_end - op_start) AS total_time
            FROM (SELECT start AS op_start, "end" AS op_end FROM rocpd_kernel_dispatch
                  UNION ALL
                  SELECT start, "end" FROM rocpd_memory_copy
                  UNION ALL
                  SELECT start, "end" FROM rocpd_region)) AS total
GROUP BY ops.name
ORDER BY total_duration DESC;
