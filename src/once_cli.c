/* once_cli.c: script mode. One refresh of the parts the view needs
 * (oc_collector_refresh_once, no collector thread, no screen), the rows
 * and texts of core/script.c, and exit codes a cron check can use. */
#include "once_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/script.h"
#include "core/timespec.h"
#include "session_setup.h"
#include "source/collector.h"
#include "source/source.h"

int oc_once_check_args(const struct oc_once_args *a)
{
	int v = oc_script_view_parse(a->view);
	if (v < 0) {
		fprintf(stderr, "opsconsole: --once: unknown view '%s' (%s)\n", a->view ? a->view : "",
			oc_script_view_list());
		return 2;
	}
	if (a->partition && v != OC_SCRIPT_QUEUE) {
		fprintf(stderr, "opsconsole: --partition goes with --once queue, not --once %s\n", a->view);
		return 2;
	}
	bool report = v == OC_SCRIPT_HISTORY || v == OC_SCRIPT_EVENTS;
	if ((a->since || a->until) && !report) {
		fprintf(stderr, "opsconsole: --%s goes with --once history or events, not --once %s\n",
			a->since ? "since" : "until", a->view);
		return 2;
	}
	if (report) {
		time_t s, u;
		char err[256];
		if (oc_time_window(a->since ? a->since : OC_HISTORY_DEFAULT_SINCE, a->until, time(NULL), &s, &u, err,
				   sizeof(err)) < 0) {
			fprintf(stderr, "opsconsole: %s\n", err);
			return 2;
		}
	}
	return 0;
}

int oc_once_run(struct oc_setup *setup, const struct oc_once_args *a)
{
	const struct oc_profile *p = &setup->profile;
	if (oc_once_check_args(a))
		return 2;
	struct oc_script_opts o = {
		.view = (enum oc_script_view)oc_script_view_parse(a->view),
		.partition = a->partition,
		.show_hidden = a->show_hidden,
		.json = a->json,
		.since = a->since ? a->since : OC_HISTORY_DEFAULT_SINCE,
		.until = a->until ? a->until : "",
	};
	char err[512];
	if (oc_setup_open(setup, false, err, sizeof(err)) < 0)
		return 2;
	unsigned mask = oc_script_view_parts(o.view);
	/* Partitions index nodes: they are read together, as the collector does. */
	if (mask & OC_MASK(OC_PART_PARTITIONS))
		mask |= OC_MASK(OC_PART_NODES);
	struct oc_snapshot *s;
	if (o.view == OC_SCRIPT_SCHEDULER) {
		s = oc_collector_report_once(setup->backend, OC_REPORT_SCHED, "now", NULL, NULL);
		/* The controllers head the list: who answers, who is in control. */
		if (s)
			oc_collector_ping_once(setup->backend, s, s->sched_status.error[0] ? 0 : 1);
	} else if (o.view == OC_SCRIPT_HISTORY || o.view == OC_SCRIPT_EVENTS)
		s = oc_collector_report_once(setup->backend,
					     o.view == OC_SCRIPT_HISTORY ? OC_REPORT_HISTORY : OC_REPORT_EVENTS, o.since,
					     o.until, NULL);
	else
		s = oc_collector_refresh_once(setup->backend, mask, NULL);
	oc_setup_close(setup);
	if (!s) {
		fprintf(stderr, "opsconsole: %s: out of memory\n", p->name);
		return 2;
	}
	int rc = 2;
	long findings = 0;
	char *text = NULL;
	if (oc_script_check(s, &o, err, sizeof(err)) < 0) {
		fprintf(stderr, "opsconsole: %s: --once %s: %s\n", p->name, a->view, err);
	} else if (!(text = oc_script_render(s, &o, &findings, err, sizeof(err)))) {
		fprintf(stderr, "opsconsole: %s: --once %s: %s\n", p->name, a->view, err);
	} else {
		char warning[256];
		if (oc_script_warning(s, &o, warning, sizeof(warning))[0])
			fprintf(stderr, "opsconsole: %s: warning: %s\n", p->name, warning);
		fputs(text, stdout);
		if (fflush(stdout) != 0 || ferror(stdout))
			fprintf(stderr, "opsconsole: cannot write the output\n");
		else
			rc = (oc_script_view_has_findings(o.view) && findings > 0) ? 1 : 0;
	}
	free(text);
	oc_snapshot_unref(&s);
	return rc;
}
