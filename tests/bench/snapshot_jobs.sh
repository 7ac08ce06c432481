#!/usr/bin/env bash
# snapshot_jobs.sh IN N OUT: the recorded snapshot IN (docs/snapshots.md)
# with N pending jobs added, spread as the mixed workload spreads them
# (200 users bu001..bu200 in 20 accounts, four partitions and their QoS,
# seven pending reasons, a third with long names, 1, 2 or 4 nodes of 8
# GPUs), into OUT. For timing sorts and filters of a long queue on a
# recording (`opsconsole --snapshot OUT --view queue` under bench_keys),
# without filling a cluster: docs/performance.md.
set -euo pipefail
[[ $# == 3 ]] || { echo "usage: snapshot_jobs.sh IN N OUT" >&2; exit 2; }
in=$1 n=$2 out=$3
[[ $n =~ ^[0-9]+$ ]] || { echo "snapshot_jobs.sh: N must be a number: $n" >&2; exit 2; }
head -n 1 "$in" | grep -q '"schema":"opsconsole.snapshot/' || { echo "snapshot_jobs.sh: $in is not a recorded snapshot" >&2; exit 2; }
awk -v n="$n" '
NR == 1 {
	match($0, /"jobs":[0-9]+/)
	jobs = substr($0, RSTART + 7, RLENGTH - 7) + n
	print substr($0, 1, RSTART - 1) "\"jobs\":" jobs substr($0, RSTART + RLENGTH)
	next
}
{ print; if ($0 ~ /"t":"job"/) { match($0, /"job_id":[0-9]+/); id = substr($0, RSTART + 9, RLENGTH - 9) + 0; if (id > top) top = id } }
END {
	split("normal large debug exclusive", part, " ")
	split("Priority Resources AssocGrpGRES Dependency BeginTime ReqNodeNotAvail JobHeldUser", why, " ")
	srand(1)
	for (i = 0; i < n; i++) {
		u = i % 200; a = int(u / 10) + 1; p = part[i % 4 + 1]
		user = sprintf("bu%03d", u + 1); acct = sprintf("bacct%02d", a)
		name = (i % 3 == 0) ? sprintf("bench-%d-sft-qwen2.5-32b-tp8-pp4-seq8192-lr3e-4-warmup2000-%s", i % 100, acct) \
				    : sprintf("bench-%d-%s", i % 100, user)
		nn = 2 ^ int(rand() * 3)
		printf "{\"t\":\"job\",\"job_id\":%d,\"array_job_id\":0,\"array_task_id\":4294967295,\"name\":\"%s\",\"user\":\"%s\",\"account\":\"%s\",\"partition\":\"%s\",\"qos\":\"%s_qos\",\"state\":0,\"flags\":0,\"reason\":\"%s\",\"submit_time\":1796392016,\"start_time\":0,\"end_time\":0,\"time_limit_min\":1440,\"num_nodes\":%d,\"num_cpus\":%d,\"gpus\":%d,\"priority\":%d,\"het_job_id\":0,\"het_job_offset\":4294967295}\n", \
			top + 1 + i, name, user, acct, p, p, why[i % 7 + 1], nn, 192 * nn, 8 * nn, 1 + int(rand() * 50000)
	}
}' "$in" >"$out"
