/* test_ctl.c: the controllers (core/ctl.c): hosts from the configuration,
 * which one is in control and since when across a failover, the header's
 * words, the scheduler rows, and `scontrol ping` / `sacctmgr ping` read
 * by the CLI backend. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/ctl.h"
#include "core/sched.h"
#include "source/cli_parse.h"

static const char two_ctld[] = "Configuration data as of 2026-12-03T06:00:00\n"
			       "AccountingStorageBackupHost = db2\n"
			       "AccountingStorageHost   = db1\n"
			       "AccountingStorageType   = accounting_storage/slurmdbd\n"
			       "BOOT_TIME               = 2026-12-03T06:01:12\n"
			       "SlurmctldHost[0]        = oc-ctld1(127.0.0.1)\n"
			       "SlurmctldHost[1]        = oc-ctld2(127.0.0.2)\n"
			       "SlurmctldTimeout        = 10 sec\n";

static struct oc_config *config_of(const char *text)
{
	struct oc_config *cfg = NULL;
	char err[128];
	assert_int_equal(oc_cli_parse_config(text, strlen(text), NULL, &cfg, err, sizeof(err)), 0);
	return cfg;
}

static struct oc_controllers empty(void)
{
	struct oc_controllers c;
	memset(&c, 0, sizeof(c));
	c.in_control = -1;
	return c;
}

static void test_from_config(void **state)
{
	(void)state;
	struct oc_config *cfg = config_of(two_ctld);
	struct oc_controllers prev = empty(), c;
	oc_ctl_from_config(cfg, &prev, &c);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.v[0].host, "oc-ctld1");
	assert_string_equal(c.v[0].addr, "127.0.0.1");
	assert_string_equal(c.v[1].host, "oc-ctld2");
	assert_string_equal(c.v[1].addr, "127.0.0.2");
	assert_int_equal(c.v[0].state, OC_CTLD_UNKNOWN);
	assert_int_equal(c.ndbd, 2);
	assert_string_equal(c.dbd[0].host, "db1");
	assert_string_equal(c.dbd[1].host, "db2");
	assert_int_equal(c.in_control, -1);
	oc_config_unref(&cfg);

	/* No accounting through slurmdbd: no slurmdbd host; a name that is
	 * its own address keeps no address. */
	cfg = config_of("AccountingStorageType = accounting_storage/none\n"
			"AccountingStorageHost = db1\n"
			"SlurmctldHost[0] = head\n");
	oc_ctl_from_config(cfg, &prev, &c);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].host, "head");
	assert_string_equal(c.v[0].addr, "");
	assert_int_equal(c.ndbd, 0);
	oc_config_unref(&cfg);

	/* No configuration yet: nothing to name. */
	oc_ctl_from_config(NULL, &prev, &c);
	assert_int_equal(c.n, 0);
}

/* Pinged states for the two controllers of two_ctld. */
static struct oc_controllers pinged(const struct oc_controllers *prev, enum oc_ctld_state a,
				    enum oc_ctld_state b)
{
	struct oc_config *cfg = config_of(two_ctld);
	struct oc_controllers c;
	oc_ctl_from_config(cfg, prev, &c);
	oc_config_unref(&cfg);
	c.v[0].state = a;
	c.v[1].state = b;
	c.dbd[0].state = OC_CTLD_UP;
	c.dbd[1].state = OC_CTLD_UNKNOWN;
	return c;
}

static void test_failover(void **state)
{
	(void)state;
	time_t boot = 1000000, t0 = 1000600;
	struct oc_controllers none = empty();
	char buf[256];
	int bad;

	/* First sight: both answer, requests work: the primary is in control
	 * since it booted, the backup stands by (seen since now). */
	struct oc_controllers a = pinged(&none, OC_CTLD_UP, OC_CTLD_UP);
	oc_ctl_judge(&a, &none, 1, boot, t0);
	assert_int_equal(a.in_control, 0);
	assert_true(a.v[0].in_control);
	assert_false(a.v[1].in_control);
	assert_int_equal(a.v[0].since, boot);
	assert_false(a.v[0].since_seen);
	assert_int_equal(a.v[1].since, t0);
	assert_true(a.v[1].since_seen);
	oc_ctl_header(&a, 200, buf, sizeof(buf), &bad);
	assert_int_equal(bad, 0);
	assert_non_null(strstr(buf, "ctld oc-ctld1 in control since "));
	assert_non_null(strstr(buf, ", oc-ctld2 standby"));

	/* The primary stops answering; the requests are still out: none in
	 * control. */
	struct oc_controllers b = pinged(&a, OC_CTLD_DOWN, OC_CTLD_UP);
	oc_ctl_judge(&b, &a, -1, boot, t0 + 5);
	assert_int_equal(b.in_control, -1);
	assert_int_equal(b.v[0].since, t0 + 5);
	assert_false(b.v[0].since_seen);
	assert_true(oc_ctl_changed(&a, &b));
	oc_ctl_header(&b, 200, buf, sizeof(buf), &bad);
	assert_int_equal(bad, 2);
	assert_non_null(strstr(buf, "oc-ctld1 DOWN since "));
	assert_non_null(strstr(buf, "none in control"));

	/* The requests came back (through the backup): it is in control. */
	struct oc_controllers c = pinged(&b, OC_CTLD_DOWN, OC_CTLD_UP);
	oc_ctl_judge(&c, &b, 1, boot, t0 + 15);
	assert_int_equal(c.in_control, 1);
	assert_int_equal(c.v[1].since, t0 + 15);
	assert_int_equal(c.v[0].since, t0 + 5); /* DOWN since it was first seen down */
	oc_ctl_header(&c, 200, buf, sizeof(buf), &bad);
	assert_int_equal(bad, 1);
	assert_non_null(strstr(buf, "oc-ctld2 in control since "));
	/* Narrow: without the times, then marks. */
	oc_ctl_header(&c, 40, buf, sizeof(buf), &bad);
	assert_string_equal(buf, "ctld oc-ctld1 DOWN, oc-ctld2 in control");
	oc_ctl_header(&c, 20, buf, sizeof(buf), &bad);
	assert_string_equal(buf, "ctld oc-ctld1! oc-ctld2*");

	/* Requests that fail with both answering: none in control (a backup
	 * in standby answers pings too). */
	struct oc_controllers d = pinged(&c, OC_CTLD_UP, OC_CTLD_UP);
	oc_ctl_judge(&d, &c, 0, boot, t0 + 20);
	assert_int_equal(d.in_control, -1);
	oc_ctl_header(&d, 200, buf, sizeof(buf), &bad);
	assert_int_equal(bad, 2);

	/* The primary back and in control. */
	struct oc_controllers e = pinged(&d, OC_CTLD_UP, OC_CTLD_UP);
	oc_ctl_judge(&e, &d, 1, boot, t0 + 30);
	assert_int_equal(e.in_control, 0);
	assert_int_equal(e.v[0].since, t0 + 30); /* not the old boot time */
	oc_ctl_header(&e, 20, buf, sizeof(buf), &bad);
	assert_string_equal(buf, "ctld oc-ctld1* oc-ctld2");
	assert_int_equal(bad, 0);

	/* Not changed: the same again. */
	struct oc_controllers f = pinged(&e, OC_CTLD_UP, OC_CTLD_UP);
	oc_ctl_judge(&f, &e, 1, boot, t0 + 40);
	assert_false(oc_ctl_changed(&e, &f));
}

static void test_single(void **state)
{
	(void)state;
	struct oc_config *cfg = config_of("SlurmctldHost[0] = head(10.0.0.1)\n");
	struct oc_controllers none = empty(), c;
	oc_ctl_from_config(cfg, &none, &c);
	oc_config_unref(&cfg);
	c.v[0].state = OC_CTLD_UP;
	oc_ctl_judge(&c, &none, 1, 0, 5000);
	char buf[128];
	int bad;
	oc_ctl_header(&c, 200, buf, sizeof(buf), &bad);
	assert_int_equal(bad, 0);
	assert_true(strncmp(buf, "ctld head up since <=", 21) == 0);
	/* Not asked: said as such. */
	struct oc_controllers u = none;
	struct oc_config *cfg1 = config_of("SlurmctldHost[0] = head\n");
	oc_ctl_from_config(cfg1, &none, &u);
	oc_config_unref(&cfg1);
	oc_ctl_judge(&u, &none, 0, 0, 5000);
	oc_ctl_header(&u, 200, buf, sizeof(buf), &bad);
	assert_string_equal(buf, "ctld head not checked");
	assert_int_equal(bad, 2);
}

static void test_sched_rows(void **state)
{
	(void)state;
	struct oc_controllers none = empty();
	struct oc_controllers a = pinged(&none, OC_CTLD_DOWN, OC_CTLD_UP);
	oc_ctl_judge(&a, &none, 1, 0, 7000);
	struct oc_sched_row *rows = NULL;
	long n = oc_sched_rows(NULL, &a, 7000, &rows);
	assert_int_equal(n, 4);
	assert_string_equal(rows[0].group, "slurmctld");
	assert_string_equal(rows[0].item, "oc-ctld1 (primary)");
	assert_true(strncmp(rows[0].value, "DOWN since ", 11) == 0);
	assert_non_null(strstr(rows[0].value, "at 127.0.0.1"));
	assert_true(rows[0].unusual);
	assert_string_equal(rows[1].item, "oc-ctld2 (backup)");
	assert_true(strncmp(rows[1].value, "in control since ", 17) == 0);
	assert_true(rows[1].unusual); /* a backup in control */
	assert_string_equal(rows[2].group, "slurmdbd");
	assert_string_equal(rows[2].item, "db1 (primary)");
	assert_false(rows[2].unusual);
	assert_string_equal(rows[3].item, "db2 (backup)");
	assert_string_equal(rows[3].value, "unknown");
	assert_false(rows[3].unusual);
	free(rows);
}

/* A backup slurmdbd in standby does not listen: not a fault while the
 * primary answers; serving while the primary does not is unusual; both
 * silent is. */
static void test_sched_rows_dbd_backup(void **state)
{
	(void)state;
	struct oc_controllers none = empty();
	struct oc_controllers a = pinged(&none, OC_CTLD_UP, OC_CTLD_UP);
	oc_ctl_judge(&a, &none, 1, 0, 7000);
	struct oc_sched_row *rows = NULL;
	a.dbd[0].state = OC_CTLD_UP;
	a.dbd[1].state = OC_CTLD_DOWN;
	long n = oc_sched_rows(NULL, &a, 7000, &rows);
	assert_int_equal(n, 4);
	assert_string_equal(rows[3].item, "db2 (backup)");
	assert_true(strncmp(rows[3].value, "not listening since ", 20) == 0);
	assert_false(rows[3].unusual);
	assert_non_null(strstr(rows[3].note, "standby"));
	assert_false(rows[2].unusual);
	free(rows);
	/* The primary fails, the backup took over. */
	a.dbd[0].state = OC_CTLD_DOWN;
	a.dbd[1].state = OC_CTLD_UP;
	n = oc_sched_rows(NULL, &a, 7000, &rows);
	assert_int_equal(n, 4);
	assert_true(strncmp(rows[2].value, "DOWN since ", 11) == 0);
	assert_true(rows[2].unusual);
	assert_string_equal(rows[2].note, "does not answer; the backup serves");
	assert_true(strncmp(rows[3].value, "serves since ", 13) == 0);
	assert_true(rows[3].unusual);
	free(rows);
	/* Both answer: the backup has not given control back. */
	a.dbd[0].state = OC_CTLD_UP;
	a.dbd[1].state = OC_CTLD_UP;
	n = oc_sched_rows(NULL, &a, 7000, &rows);
	assert_false(rows[2].unusual);
	assert_true(rows[3].unusual);
	assert_non_null(strstr(rows[3].note, "both answer"));
	free(rows);
	a.dbd[0].state = OC_CTLD_DOWN;
	/* Neither answers. */
	a.dbd[1].state = OC_CTLD_DOWN;
	n = oc_sched_rows(NULL, &a, 7000, &rows);
	assert_true(rows[2].unusual);
	assert_string_equal(rows[2].note, "does not answer");
	assert_true(strncmp(rows[3].value, "DOWN since ", 11) == 0);
	assert_true(rows[3].unusual);
	free(rows);
}

static void test_parse_ping(void **state)
{
	(void)state;
	struct oc_ctld v[3];
	memset(v, 0, sizeof(v));
	static const char sc[] = "Slurmctld(primary) at oc-ctld1 is DOWN\n"
				 "Slurmctld(backup) at oc-ctld2 is UP\n"
				 "Slurmctld(backup2) at oc-ctld3 is UP\n"
				 "*****************************************\n"
				 "** RESTORE SLURMCTLD DAEMON TO SERVICE **\n"
				 "*****************************************\n";
	assert_int_equal(oc_cli_parse_ping(sc, strlen(sc), "Slurmctld", v, 3), 3);
	assert_int_equal(v[0].state, OC_CTLD_DOWN);
	assert_int_equal(v[1].state, OC_CTLD_UP);
	assert_int_equal(v[2].state, OC_CTLD_UP);
	/* A line for a controller the configuration does not have is read
	 * and left out. */
	memset(v, 0, sizeof(v));
	assert_int_equal(oc_cli_parse_ping(sc, strlen(sc), "Slurmctld", v, 1), 3);
	assert_int_equal(v[0].state, OC_CTLD_DOWN);
	assert_int_equal(v[1].state, OC_CTLD_UNKNOWN);
	static const char sa[] = "slurmdbd(primary) at db1 is UP\nslurmdbd(backup) at db2 is DOWN\n";
	memset(v, 0, sizeof(v));
	assert_int_equal(oc_cli_parse_ping(sa, strlen(sa), "slurmdbd", v, 2), 2);
	assert_int_equal(v[0].state, OC_CTLD_UP);
	assert_int_equal(v[1].state, OC_CTLD_DOWN);
	/* sacctmgr before 24.11 has no ping; text without a line. */
	static const char bad[] = "sacctmgr: error: Unknown option: ping\n";
	memset(v, 0, sizeof(v));
	assert_int_equal(oc_cli_parse_ping(bad, strlen(bad), "slurmdbd", v, 2), -1);
	assert_int_equal(v[0].state, OC_CTLD_UNKNOWN);
	/* An odd last word: not known. */
	static const char odd[] = "Slurmctld(primary) at h is MAYBE\n";
	v[0].state = OC_CTLD_UP;
	assert_int_equal(oc_cli_parse_ping(odd, strlen(odd), "Slurmctld", v, 1), 1);
	assert_int_equal(v[0].state, OC_CTLD_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_from_config), cmocka_unit_test(test_failover), cmocka_unit_test(test_single),
		cmocka_unit_test(test_sched_rows), cmocka_unit_test(test_sched_rows_dbd_backup),
		cmocka_unit_test(test_parse_ping),
	};
	return cmocka_run_group_tests_name("ctl", tests, NULL, NULL);
}
