-- rocpd's schema as rocprofv3 writes it (results.db). Table and column names are upstream's; the
-- tables carry no per-run suffix (one run, one file), and the guid column, which upstream joins
-- on, holds one value per database. Embedded into the tool at build time (rocpd/schema.hpp).
CREATE TABLE rocpd_metadata ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "tag" TEXT NOT NULL,
    "value" TEXT NOT NULL);
CREATE TABLE rocpd_string ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "string" TEXT NOT NULL UNIQUE);
CREATE TABLE rocpd_info_node ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "hash" BIGINT NOT NULL UNIQUE, "machine_id" TEXT NOT NULL UNIQUE, "system_name" TEXT,
    "hostname" TEXT, "release" TEXT, "version" TEXT, "hardware_name" TEXT, "domain_name" TEXT);
CREATE TABLE rocpd_info_process ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "nid" INTEGER NOT NULL, "ppid" INTEGER, "pid" INTEGER NOT NULL, "init" BIGINT, "fini" BIGINT,
    "start" BIGINT, "end" BIGINT, "command" TEXT, "environment" JSONB DEFAULT '{}' NOT NULL,
    "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_info_thread ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "nid" INTEGER NOT NULL, "ppid" INTEGER, "pid" INTEGER NOT NULL, "tid" INTEGER NOT NULL,
    "name" TEXT, "start" BIGINT, "end" BIGINT, "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_info_agent ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "type" TEXT CHECK ("type" IN ('CPU', 'GPU')),
    "absolute_index" INTEGER, "logical_index" INTEGER, "type_index" INTEGER, "uuid" INTEGER,
    "name" TEXT, "model_name" TEXT, "vendor_name" TEXT, "product_name" TEXT, "user_name" TEXT,
    "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_info_queue ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "name" TEXT,
    "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_info_stream ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "name" TEXT,
    "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_info_pmc ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "agent_id" INTEGER, "target_arch" TEXT,
    "event_code" INT, "instance_id" INTEGER, "name" TEXT NOT NULL, "symbol" TEXT NOT NULL,
    "description" TEXT, "long_description" TEXT DEFAULT '', "component" TEXT,
    "units" TEXT DEFAULT '', "value_type" TEXT, "block" TEXT, "expression" TEXT,
    "is_constant" INTEGER, "is_derived" INTEGER, "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_info_code_object ("id" INTEGER PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "agent_id" INTEGER,
    "uri" TEXT, "load_base" BIGINT, "load_size" BIGINT, "load_delta" BIGINT,
    "storage_type" TEXT, "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_info_kernel_symbol ("id" INTEGER PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL,
    "code_object_id" INTEGER NOT NULL, "kernel_name" TEXT, "display_name" TEXT,
    "kernel_object" INTEGER, "kernarg_segment_size" INTEGER, "kernarg_segment_alignment" INTEGER,
    "group_segment_size" INTEGER, "private_segment_size" INTEGER, "sgpr_count" INTEGER,
    "arch_vgpr_count" INTEGER, "accum_vgpr_count" INTEGER, "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_track ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "nid" INTEGER NOT NULL, "pid" INTEGER, "tid" INTEGER, "name_id" INTEGER,
    "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_event ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "category_id" INTEGER, "stack_id" INTEGER, "parent_stack_id" INTEGER,
    "correlation_id" INTEGER, "call_stack" JSONB DEFAULT '{}' NOT NULL,
    "line_info" JSONB DEFAULT '{}' NOT NULL, "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_arg ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "event_id" INTEGER NOT NULL, "position" INTEGER NOT NULL, "type" TEXT NOT NULL,
    "name" TEXT NOT NULL, "value" TEXT, "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_pmc_event ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "event_id" INTEGER, "pmc_id" INTEGER NOT NULL, "value" REAL DEFAULT 0.0,
    "extdata" JSONB DEFAULT '{}');
CREATE TABLE rocpd_kernel_dispatch ("id" INTEGER PRIMARY KEY AUTOINCREMENT,
    "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "tid" INTEGER,
    "agent_id" INTEGER NOT NULL, "kernel_id" INTEGER NOT NULL, "dispatch_id" INTEGER NOT NULL,
    "queue_id" INTEGER NOT NULL, "stream_id" INTEGER NOT NULL, "start" BIGINT NOT NULL,
    "end" BIGINT NOT NULL, "private_segment_size" INTEGER, "group_segment_size" INTEGER,
    "workgroup_size_x" INTEGER NOT NULL, "workgroup_size_y" INTEGER NOT NULL,
    "workgroup_size_z" INTEGER NOT NULL, "grid_size_x" INTEGER NOT NULL,
    "grid_size_y" INTEGER NOT NULL, "grid_size_z" INTEGER NOT NULL, "region_name_id" INTEGER,
    "event_id" INTEGER, "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_memory_copy ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "tid" INTEGER, "queue_id" INTEGER,
    "stream_id" INTEGER NOT NULL, "start" BIGINT NOT NULL, "end" BIGINT NOT NULL,
    "name_id" INTEGER NOT NULL, "dst_agent_id" INTEGER, "dst_address" INTEGER,
    "src_agent_id" INTEGER, "src_address" INTEGER, "size" INTEGER NOT NULL,
    "region_name_id" INTEGER, "event_id" INTEGER, "extdata" JSONB DEFAULT '{}' NOT NULL);
CREATE TABLE rocpd_region ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL,
    "nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "tid" INTEGER NOT NULL,
    "start" BIGINT NOT NULL, "end" BIGINT NOT NULL, "name_id" INTEGER NOT NULL,
    "event_id" INTEGER, "extdata" JSONB DEFAULT '{}' NOT NULL);
-- Ours, not upstream's: what kernel replay did with each dispatch rocprofv3 asked to replay
-- (docs/rocprofv3.md, "What kernel replay could not collect").
CREATE TABLE rocprofv3_kernel_replay_outcome ("dispatch_id" INTEGER NOT NULL,
    "agent_id" INTEGER, "kernel_id" INTEGER, "outcome" TEXT NOT NULL, "reason" TEXT NOT NULL,
    "passes_run" INTEGER, "passes_planned" INTEGER, "snapshot_bytes" INTEGER,
    "written_bytes" INTEGER, "verified_bytes" INTEGER, "failed_pass" INTEGER,
    "missing_groups" JSONB DEFAULT '[]' NOT NULL);
-- Ours, not upstream's: the bytes of a name the application gave that is not valid UTF-8. The TEXT
-- column shows such a name with U+FFFD in place of each ill-formed part; this table keeps the bytes
-- as they were, one row per name ("table_name": rocpd_string or rocpd_info_kernel_symbol, "row_id":
-- the id of the row there). Names that differ only in their ill-formed bytes share one
-- rocpd_string row, with a row here for each (docs/rocprofv3.md, "Names that are not valid UTF-8").
CREATE TABLE rocprofv3_raw_name ("table_name" TEXT NOT NULL, "row_id" INTEGER NOT NULL,
    "raw" BLOB NOT NULL, UNIQUE ("table_name", "row_id", "raw"));

CREATE VIEW kernels AS
SELECT K.id, K.guid, K.nid, P.pid, T.tid, K.agent_id, A.absolute_index AS agent_abs_index,
    A.logical_index AS agent_log_index, A.type_index AS agent_type_index, A.type AS agent_type,
    K.queue_id, Q.name AS queue, K.stream_id, K.kernel_id, K.dispatch_id,
    S.display_name AS kernel_name, S.display_name AS name, S.kernel_name AS mangled_name,
    K.start, K.end, (K.end - K.start) AS duration, K.grid_size_x, K.grid_size_y, K.grid_size_z,
    (K.grid_size_x * K.grid_size_y * K.grid_size_z) AS grid_size, K.workgroup_size_x,
    K.workgroup_size_y, K.workgroup_size_z,
    (K.workgroup_size_x * K.workgroup_size_y * K.workgroup_size_z) AS workgroup_size,
    K.group_segment_size AS lds_size, K.private_segment_size AS scratch_size,
    S.group_segment_size AS static_lds_size, S.private_segment_size AS static_scratch_size,
    S.arch_vgpr_count AS vgpr_count, S.accum_vgpr_count, S.sgpr_count,
    E.correlation_id AS corr_id, E.correlation_id,
    (SELECT string FROM rocpd_string RS WHERE RS.id = E.category_id) AS category,
    (SELECT string FROM rocpd_string RS WHERE RS.id = K.region_name_id) AS region,
    S.code_object_id, K.extdata
FROM rocpd_kernel_dispatch K
    LEFT JOIN rocpd_info_agent A ON A.id = K.agent_id
    LEFT JOIN rocpd_info_queue Q ON Q.id = K.queue_id
    LEFT JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id
    LEFT JOIN rocpd_info_process P ON P.id = K.pid
    LEFT JOIN rocpd_info_thread T ON T.id = K.tid
    LEFT JOIN rocpd_event E ON E.id = K.event_id
ORDER BY K.start;

CREATE VIEW memory_copies AS
SELECT M.id, M.guid, M.nid, P.pid, T.tid, M.event_id,
    (SELECT string FROM rocpd_string RS WHERE RS.id = E.category_id) AS category,
    (SELECT string FROM rocpd_string RS WHERE RS.id = M.name_id) AS name,
    (SELECT string FROM rocpd_string RS WHERE RS.id = M.region_name_id) AS region_name,
    M.start, M.end, (M.end - M.start) AS duration, M.queue_id, NULL AS queue_name, M.stream_id,
    S.name AS stream_name, M.size,
    CASE WHEN M.dst_agent_id IS NULL THEN 'host' ELSE DA.name END AS dst_device, M.dst_agent_id,
    DA.absolute_index AS dst_agent_absolute_index, DA.logical_index AS dst_agent_logical_index,
    DA.type_index AS dst_agent_type_index,
    CASE WHEN M.dst_agent_id IS NULL THEN 'CPU' ELSE DA.type END AS dst_agent_type, M.dst_address,
    CASE WHEN M.src_agent_id IS NULL THEN 'host' ELSE SA.name END AS src_device, M.src_agent_id,
    SA.absolute_index AS src_agent_absolute_index, SA.logical_index AS src_agent_logical_index,
    SA.type_index AS src_agent_type_index,
    CASE WHEN M.src_agent_id IS NULL THEN 'CPU' ELSE SA.type END AS src_agent_type, M.src_address, E.stack_id, E.parent_stack_id, E.correlation_id,
    M.extdata
FROM rocpd_memory_copy M
    LEFT JOIN rocpd_event E ON E.id = M.event_id
    LEFT JOIN rocpd_info_agent DA ON DA.id = M.dst_agent_id
    LEFT JOIN rocpd_info_agent SA ON SA.id = M.src_agent_id
    LEFT JOIN rocpd_info_stream S ON S.id = M.stream_id
    LEFT JOIN rocpd_info_process P ON P.id = M.pid
    LEFT JOIN rocpd_info_thread T ON T.id = M.tid
ORDER BY M.start;

CREATE VIEW regions AS
SELECT R.id, R.guid,
    (SELECT string FROM rocpd_string RS WHERE RS.id = E.category_id) AS category,
    (SELECT string FROM rocpd_string RS WHERE RS.id = R.name_id) AS name, R.nid, P.pid, T.tid,
    R.start, R.end, (R.end - R.start) AS duration, R.event_id, E.stack_id, E.parent_stack_id,
    E.correlation_id AS corr_id, E.extdata, E.call_stack, E.line_info
FROM rocpd_region R
    LEFT JOIN rocpd_event E ON E.id = R.event_id
    LEFT JOIN rocpd_info_process P ON P.id = R.pid
    LEFT JOIN rocpd_info_thread T ON T.id = R.tid
ORDER BY R.start;

CREATE VIEW counters_collection AS
SELECT MIN(PE.id) AS id, PE.guid, K.dispatch_id, K.kernel_id, E.id AS event_id,
    E.correlation_id, E.stack_id, E.parent_stack_id, P.pid, T.tid, K.agent_id,
    A.absolute_index AS agent_abs_index, A.logical_index AS agent_log_index,
    A.type_index AS agent_type_index, A.type AS agent_type, K.queue_id, K.grid_size_x,
    K.grid_size_y, K.grid_size_z, (K.grid_size_x * K.grid_size_y * K.grid_size_z) AS grid_size,
    S.display_name AS kernel_name,
    (SELECT string FROM rocpd_string RS WHERE RS.id = K.region_name_id) AS kernel_region,
    K.workgroup_size_x, K.workgroup_size_y, K.workgroup_size_z,
    (K.workgroup_size_x * K.workgroup_size_y * K.workgroup_size_z) AS workgroup_size,
    K.group_segment_size AS lds_block_size, K.private_segment_size AS scratch_size,
    S.arch_vgpr_count AS vgpr_count, S.accum_vgpr_count, S.sgpr_count,
    I.name AS counter_name, I.symbol AS counter_symbol, I.component, I.description, I.block,
    I.expression, I.value_type, I.id AS counter_id, SUM(PE.value) AS value, K.start, K.end,
    I.is_constant, I.is_derived, (K.end - K.start) AS duration,
    (SELECT string FROM rocpd_string RS WHERE RS.id = E.category_id) AS category, K.nid,
    PE.extdata, S.code_object_id
FROM rocpd_pmc_event PE
    INNER JOIN rocpd_info_pmc I ON I.id = PE.pmc_id
    INNER JOIN rocpd_event E ON E.id = PE.event_id
    INNER JOIN rocpd_kernel_dispatch K ON K.event_id = PE.event_id
    LEFT JOIN rocpd_info_agent A ON A.id = K.agent_id
    LEFT JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id
    LEFT JOIN rocpd_info_process P ON P.id = K.pid
    LEFT JOIN rocpd_info_thread T ON T.id = K.tid
GROUP BY K.dispatch_id, I.name, K.agent_id;
