#!/usr/bin/env bash
# test_harness.sh: the test sshd (sshd.sh, started by the ctest fixture
# "sshd") takes the client key it made, with its host key checked strictly
# against the known_hosts it wrote, for both names, as root and as the
# non-root test user; refuses a login without
# the key; and hands the sessions the cluster's SLURM_CONF.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
eval "$("$here/sshd.sh" env)"
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
"$here/sshd.sh" status >/dev/null || fail "sshd.sh status: not running"
opts=(-o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile="$OC_SSH_KNOWN_HOSTS"
	-o GlobalKnownHostsFile=/dev/null -o ConnectTimeout=10 -p "$OC_SSHD_PORT")
for host in 127.0.0.1 localhost; do
	got=$(ssh "${opts[@]}" -o IdentitiesOnly=yes -i "$OC_SSH_KEY" "root@$host" 'printf %s "${SLURM_CONF-unset}"') ||
		fail "ssh root@$host:$OC_SSHD_PORT with the client key failed"
	[[ $got == "${SLURM_CONF-unset}" ]] || fail "SLURM_CONF in the session: '$got', want '${SLURM_CONF-unset}'"
done
uid=$(ssh "${opts[@]}" -o IdentitiesOnly=yes -i "$OC_SSH_KEY" "$OC_SSH_USER@127.0.0.1" 'id -u') ||
	fail "ssh $OC_SSH_USER@127.0.0.1:$OC_SSHD_PORT (the non-root login) failed"
[[ $uid =~ ^[0-9]+$ && $uid -ne 0 ]] || fail "$OC_SSH_USER has uid '$uid', want a non-root uid"
if ssh "${opts[@]}" -o IdentitiesOnly=yes -o PubkeyAuthentication=no root@127.0.0.1 true 2>/dev/null; then
	fail "a login without a key was accepted"
fi
printf 'ok: sshd on 127.0.0.1:%s takes the client key (root, %s), refuses others, SLURM_CONF=%s\n' "$OC_SSHD_PORT" "$OC_SSH_USER" "${SLURM_CONF-unset}"
