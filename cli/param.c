// SPDX-License-Identifier: GPL-2.0
/*
 * dlctl: the tunables and the one number parser behind tunable values,
 * times and sizes, so that every place takes the same spellings.
 */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>
#include <strings.h>

#include "dlctl.h"
#include "sysfs.h"

/*
 * async_depth's default, as the kernel sets it when the scheduler starts
 * and whenever nr_requests changes: nr_requests, reserving nothing; and
 * its most, above which the kernel refuses it.
 */
static int nr_requests_all(const char *dev, uint32_t *val)
{
	char line[64];
	uint64_t nr;
	int ret = sysfs_read(line, sizeof(line), "block/%s/queue/nr_requests", dev);

	if (ret) {
		warnx_("%s: nr_requests: %s", dev, strerror(-ret));
		return -1;
	}
	if (parse_num(line, NUM_PLAIN, &nr) || nr > INT32_MAX) {
		warnx_("%s: nr_requests: '%s': not a number of requests", dev, esc(line));
		return -1;
	}
	*val = nr < 1 ? 1 : (uint32_t)nr;
	return 0;
}

static const struct dev_default async_depth_default = {
	"nr_requests", nr_requests_all, true,
};

/* In the order of the kernel's attributes (queue/iosched/): show's columns. */
const struct param params[] = {
	{ "read_expire", UNIT_MS, 500, NULL, 1, 600000, "ms a read should start within" },
	{ "write_expire", UNIT_MS, 5000, NULL, 1, 600000, "ms a write should start within" },
	{ "writes_starved", UNIT_NONE, 2, NULL, 0, 1000, "read batches while writes wait" },
	{ "fifo_batch", UNIT_NONE, 64, NULL, 1, 65536, "cost units per batch" },
	{ "seek_cost", UNIT_NONE, 4, NULL, 1, 65536, "cost units of a seek" },
	{ "hash_shift", UNIT_NONE, 10, NULL, 4, 20, "log2 of back-merge hash buckets" },
	{ "front_merges", UNIT_BOOL, 1, NULL, 0, 1, "look up front merges" },
	{ "async_depth", UNIT_NONE, 0, &async_depth_default, 1, INT32_MAX,
	  "tags for writes and async reads" },
	{ "prio_aging_expire", UNIT_MS, 10000, NULL, 1, 600000,
	  "ms before a lower priority class goes first" },
};
const size_t nr_params = sizeof(params) / sizeof(params[0]);

const struct param *find_param(const char *name)
{
	size_t i;

	for (i = 0; i < nr_params; i++)
		if (strcmp(params[i].name, name) == 0)
			return &params[i];
	return NULL;
}

int param_default(const struct param *p, const char *dev, uint32_t *val)
{
	if (p->dev_def)
		return p->dev_def->get(dev, val);
	*val = p->def;
	return 0;
}

int param_check_dev(const struct param *p, const char *dev, uint32_t v)
{
	uint32_t max;

	if (!p->dev_def || !p->dev_def->is_max)
		return 0;
	if (p->dev_def->get(dev, &max))
		return -1;
	if (v <= max)
		return 0;
	warnx_("%s: %s: '%" PRIu32 "': out of range (%" PRIu32 "..%" PRIu32 ", its %s)", dev,
	       p->name, v, p->min, max, p->dev_def->what);
	return -1;
}

const char *param_default_text(const struct param *p, char *buf, size_t size)
{
	if (p->dev_def)
		return p->dev_def->what;
	snprintf(buf, size, "%" PRIu32, p->def);
	return buf;
}

struct suffix {
	const char *name;
	uint64_t mult;
};

/* Case does not matter: 250MS is 250ms; 4KB is 4000 bytes, 4K 4096. */
static const struct suffix ms_suffixes[] = {
	{ "", 1 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "min", 60000 }, { NULL, 0 },
};

static const struct suffix s_suffixes[] = {
	{ "", 1000 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "min", 60000 }, { NULL, 0 },
};

static const struct suffix size_suffixes[] = {
	{ "", 1 },
	{ "k", 1ULL << 10 }, { "kib", 1ULL << 10 }, { "kb", 1000ULL },
	{ "m", 1ULL << 20 }, { "mib", 1ULL << 20 }, { "mb", 1000000ULL },
	{ "g", 1ULL << 30 }, { "gib", 1ULL << 30 }, { "gb", 1000000000ULL },
	{ "t", 1ULL << 40 }, { "tib", 1ULL << 40 }, { "tb", 1000000000000ULL },
	{ NULL, 0 },
};

static const char *const kind_what[] = {
	[NUM_PLAIN] = "not a decimal number",
	[NUM_MS] = "not a time (like 250, 250ms, 2s, 1m)",
	[NUM_SECONDS] = "not a time (like 5, 500ms, 5s, 1m)",
	[NUM_SIZE] = "not a size (like 4096, 4k, 64M, 1G)",
};

/*
 * Decimal digits, then a unit the kind allows: no sign, no blanks, no
 * hexadecimal, no fractions, no exponent.  Overflow is out of range.
 */
const char *parse_num(const char *s, enum num_kind kind, uint64_t *out)
{
	static const struct suffix none[] = { { "", 1 }, { NULL, 0 } };
	const struct suffix *sf = kind == NUM_MS ? ms_suffixes :
				  kind == NUM_SECONDS ? s_suffixes :
				  kind == NUM_SIZE ? size_suffixes : none;
	uint64_t v = 0;

	if (!isdigit((unsigned char)*s))
		return kind_what[kind];
	for (; isdigit((unsigned char)*s); s++) {
		uint64_t d = (uint64_t)(*s - '0');

		/* every u64 (counters are printed with %llu), nothing past it */
		if (v > UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d > UINT64_MAX % 10))
			return "out of range";
		v = v * 10 + d;
	}
	for (; sf->name; sf++) {
		if (strcasecmp(s, sf->name))
			continue;
		if (v > UINT64_MAX / sf->mult)
			return "out of range";
		*out = v * sf->mult;
		return NULL;
	}
	return kind_what[kind];
}

const char *value_error(const struct param *p, const char *s, uint32_t *val, char *buf,
			size_t size)
{
	static const char *const on[] = { "1", "on", "yes", "true" };
	static const char *const off[] = { "0", "off", "no", "false" };
	const char *why;
	uint64_t v;
	size_t i;

	if (p->unit == UNIT_BOOL) {
		for (i = 0; i < 4; i++) {
			if (strcasecmp(s, on[i]) == 0 || strcasecmp(s, off[i]) == 0) {
				*val = strcasecmp(s, on[i]) == 0;
				return NULL;
			}
		}
		snprintf(buf, size, "%s: '%s': not a boolean (0, 1, on, off, yes, no, true, false)",
			 p->name, esc(s));
		return buf;
	}
	why = parse_num(s, p->unit == UNIT_MS ? NUM_MS : NUM_PLAIN, &v);
	if (!why && (v < p->min || v > p->max))
		why = "out of range";
	if (why) {
		if (strcmp(why, "out of range") == 0 && p->dev_def && p->dev_def->is_max)
			snprintf(buf, size, "%s: '%s': out of range (%" PRIu32 "..%s)", p->name,
				 esc(s), p->min, p->dev_def->what);
		else if (strcmp(why, "out of range") == 0)
			snprintf(buf, size, "%s: '%s': out of range (%" PRIu32 "..%" PRIu32 "%s)",
				 p->name, esc(s), p->min, p->max, p->unit == UNIT_MS ? " ms" : "");
		else
			snprintf(buf, size, "%s: '%s': %s", p->name, esc(s), why);
		return buf;
	}
	*val = (uint32_t)v;
	return NULL;
}

int parse_value(const struct param *p, const char *s, uint32_t *val)
{
	char buf[512];
	const char *why = value_error(p, s, val, buf, sizeof(buf));

	if (why) {
		warnx_("%s", why);
		return -1;
	}
	return 0;
}
