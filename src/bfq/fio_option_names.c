// SPDX-License-Identifier: MIT
/*
 * The names of fio 3.33's options, its own and its engines' (with their aliases), so that a
 * job file's option kfsim does not handle is told apart from one fio does not have either:
 * the first is refused as not modelled, the second as fio refuses it ("Bad option <...>").
 * Without the list, a real fio option kfsim does not simulate (verify_state_load, uid,
 * thinktime_spin, ...) was refused in fio's words for a misspelt one, as if fio rejected it.
 *
 * Taken from fio 3.33's option tables (options.c fio_options[], and the options of the
 * engines under engines/): names only, sorted with strcmp() for bsearch().  An engine's
 * option is fio's only with that engine loaded; kfsim refuses it either way, so the two lists
 * need not be told apart beyond the reason given.
 */
#include <stdlib.h>
#include <string.h>

#include <kfsim/kernel.h>
#include "sim_jobs.h"

static const char *const fio_core_options[] = {
	"allow_file_create", "allow_mounted_write", "allrandrepeat", "atomic", "ba",
	"block_error_percentiles", "blockalign", "blocksize", "blocksize_range",
	"blocksize_unaligned", "bs", "bs_is_seq_rand", "bs_unaligned", "bsrange", "bssplit",
	"buffer_compress_chunk", "buffer_compress_percentage", "buffer_pattern", "buffered",
	"bwavgtime", "cgroup", "cgroup_nodelete", "cgroup_weight", "clat_percentiles",
	"clocksource", "continue_on_error", "cpumask", "cpus_allowed", "cpus_allowed_policy",
	"create_fsync", "create_on_open", "create_only", "create_serialize", "dedupe_global",
	"dedupe_mode", "dedupe_percentage", "dedupe_working_set_percentage", "description",
	"direct", "directory", "disable_bw", "disable_bw_measurement", "disable_clat",
	"disable_lat", "disable_slat", "disk_util", "do_verify", "end_fsync", "error_dump",
	"exec_postrun", "exec_prerun", "exit_what", "exitall", "exitall_on_error",
	"experimental_verify", "fadvise_hint", "fallocate", "fdatasync", "file_append",
	"file_service_type", "filename", "filename_format", "fileoffset", "filesize",
	"fill_device", "fill_fs", "flow", "flow_id", "flow_sleep", "flow_watermark", "fsync",
	"fsync_on_close", "gid", "gpu_dev_id", "group_reporting", "gtod_cpu", "gtod_reduce",
	"hugepage-size", "ignore_error", "ignore_zone_limits", "invalidate", "io_limit",
	"io_size", "io_submit_mode", "iodepth", "iodepth_batch", "iodepth_batch_complete",
	"iodepth_batch_complete_max", "iodepth_batch_complete_min", "iodepth_batch_submit",
	"iodepth_low", "ioengine", "iomem", "iomem_align", "iopsavgtime", "ioscheduler",
	"job_max_open_zones", "kb_base", "lat_percentiles", "latency_percentile",
	"latency_run", "latency_target", "latency_window", "lockfile", "lockmem",
	"log_alternate_epoch", "log_alternate_epoch_clock_id", "log_avg_msec",
	"log_compression", "log_compression_cpus", "log_entries", "log_hist_coarseness",
	"log_hist_msec", "log_max_value", "log_offset", "log_prio", "log_store_compressed",
	"log_unix_epoch", "loops", "max_latency", "max_open_zones", "mem", "mem_align",
	"merge_blktrace_file", "merge_blktrace_iters", "merge_blktrace_scalars", "name",
	"new_group", "nice", "norandommap", "nr_files", "nrfiles", "numa_cpu_nodes",
	"numa_mem_policy", "number_ios", "numjobs", "offset", "offset_align",
	"offset_increment", "opendir", "openfiles", "overwrite", "per_job_logs",
	"percentage_random", "percentage_sequential", "percentile_list", "pre_read", "prio",
	"prioclass", "profile", "ramp_time", "random_distribution", "random_generator",
	"randrepeat", "randseed", "rate", "rate_cycle", "rate_ignore_thinktime", "rate_iops",
	"rate_iops_min", "rate_min", "rate_process", "ratecycle", "ratemin", "read_beyond_wp",
	"read_iolog", "read_iolog_chunked", "readwrite", "refill_buffers", "replay_align",
	"replay_no_stall", "replay_redirect", "replay_scale", "replay_skip",
	"replay_time_scale", "runtime", "rw", "rw_sequencer", "rwmixcycle", "rwmixread",
	"rwmixwrite", "scramble_buffers", "serialize_overlap", "significant_figures", "size",
	"slat_percentiles", "softrandommap", "ss", "ss_dur", "ss_ramp", "startdelay", "stats",
	"steadystate", "steadystate_duration", "steadystate_ramp_time", "stonewall", "sync",
	"sync_file_range", "thinktime", "thinktime_blocks", "thinktime_blocks_type",
	"thinktime_iotime", "thinktime_spin", "thread", "time_based", "timeout",
	"trim_backlog", "trim_backlog_batch", "trim_percentage", "trim_verify_zero", "uid",
	"unified_rw_reporting", "unique_filename", "unit_base", "unlink", "unlink_each_loop",
	"verify", "verify_async", "verify_async_cpus", "verify_backlog",
	"verify_backlog_batch", "verify_dump", "verify_fatal", "verify_interval",
	"verify_offset", "verify_only", "verify_pattern", "verify_state_load",
	"verify_state_save", "verifysort", "verifysort_nr", "wait_for", "wait_for_previous",
	"write_barrier", "write_bw_log", "write_hint", "write_hist_log", "write_iolog",
	"write_iops_log", "write_lat_log", "zero_buffers", "zone_reset_frequency",
	"zone_reset_threshold", "zonecapacity", "zonemode", "zonerange", "zonesize",
	"zoneskip",
};

static const char *const fio_engine_options[] = {
	"arguments", "bindname", "brick", "busy_poll", "busy_wait_polling", "chunck_size",
	"chunk_size", "clientname", "clustername", "cmd_type", "cmdprio", "cmdprio_bssplit",
	"cmdprio_class", "cmdprio_percentage", "conf", "cont", "cpuchunks", "cpuload",
	"cpumode", "cuda_io", "direct_write_to_pmem", "donorname", "dummy", "exit_on_io_done",
	"fixedbufs", "force_async", "gpu_dev_ids", "grace_time", "hdfs_use_direct",
	"hdfsdirectory", "hipri", "hipri_percentage", "hostname", "http_host", "http_mode",
	"http_pass", "http_s3_key", "http_s3_keyid", "http_s3_region",
	"http_s3_sse_customer_algorithm", "http_s3_sse_customer_key", "http_s3_storage_class",
	"http_swift_auth_token", "http_user", "http_verbose", "https", "initiator", "inplace",
	"interface", "listen", "mss", "namenode", "nfs_url", "no_completion_thread", "nodelay",
	"nonvectored", "nowait", "object_class", "pingpong", "pool", "port", "program",
	"proto", "protocol", "rbdname", "readfua", "registerfiles", "serverip",
	"sg_write_mode", "single-instance", "single_instance", "skip_bad", "sqthread_poll",
	"sqthread_poll_cpu", "stat_type", "std_redirect", "stream_id", "svcl", "thp",
	"touch_objects", "ttl", "uncached", "uri", "userspace_reap", "verb", "volume",
	"window_size", "writefua", "xnvme_admin", "xnvme_async", "xnvme_be", "xnvme_dev_nsid",
	"xnvme_iovec", "xnvme_sync",
};

static int name_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

enum kfsim_fio_option_kind kfsim_bfq_fio_option_kind(const char *name)
{
	if (bsearch(name, fio_core_options, ARRAY_SIZE(fio_core_options),
		    sizeof(fio_core_options[0]), name_cmp))
		return KFSIM_FIO_OPTION_CORE;
	if (bsearch(name, fio_engine_options, ARRAY_SIZE(fio_engine_options),
		    sizeof(fio_engine_options[0]), name_cmp))
		return KFSIM_FIO_OPTION_ENGINE;
	return KFSIM_FIO_OPTION_NONE;
}
