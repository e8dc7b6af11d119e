/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_json.c - libFuzzer target: any bytes as a stored result, through
 * the same detection as "dbench-ng report": JSON, a dbench text log, or
 * a clear refusal.
 */
#include <stddef.h>
#include <stdint.h>

#include "dblog.h"
#include "result.h"
#include "result_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct result *r = NULL;
	char err[1024];

	if (size && text[0] == '{') {
		if (!result_parse_json("fuzz.json", text, size, &r, err,
				       sizeof(err)))
			result_free(r);
		return 0;
	}
	if (!dblog_detect(text, size))
		return 0;
	r = result_new();
	if (r)
		dblog_parse("fuzz.log", text, size, r, err, sizeof(err));
	result_free(r);
	return 0;
}
