/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * envprobe.c - test driver for tests/cli/mountinfo.sh (built by that test,
 * not by make): "envprobe DIR" prints what env_capture() records for DIR
 * as key=value lines, plus the raw mountinfo entry and the st_dev, so the
 * shell test can compare them with stat, findmnt and df.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "env.h"
#include "env_test.h"

static void put(const char *key, const char *val)
{
	printf("%s=%s\n", key, val ? val : "");
}

int main(int argc, char **argv)
{
	struct result_env env;
	struct env_mount m;
	struct stat st;
	char err[512];

	if (argc != 2) {
		fprintf(stderr, "usage: envprobe DIR\n");
		return 2;
	}
	memset(&env, 0, sizeof(env));
	if (env_capture(&env, argv[1], err, sizeof(err))) {
		fprintf(stderr, "envprobe: %s\n", err);
		return 1;
	}
	put("hostname", env.hostname);
	put("kernel", env.kernel);
	put("kernel_version", env.kernel_version);
	put("machine", env.machine);
	put("cpu_model", env.cpu_model);
	printf("cpus=%d\n", env.cpus);
	printf("mem_bytes=%llu\n", (unsigned long long)env.mem_bytes);
	put("dir", env.dir);
	put("dir_real", env.dir_real);
	put("fs_type", env.fs_type);
	put("fs_device", env.fs_device);
	put("fs_mount_point", env.fs_mount_point);
	put("fs_options", env.fs_options);
	printf("fs_size_bytes=%llu\n", (unsigned long long)env.fs_size_bytes);
	printf("fs_free_bytes=%llu\n", (unsigned long long)env.fs_free_bytes);

	/* the entry itself, for the report */
	if (!stat(env.dir_real, &st)) {
		printf("st_dev=%u:%u\n", major(st.st_dev), minor(st.st_dev));
		if (!env_mount_lookup_dev("/proc/self/mountinfo", env.dir_real,
					  &st.st_dev, &m)) {
			printf("mi_dev=%u:%u\n", m.major, m.minor);
			put("mi_root", m.root);
			env_mount_free(&m);
		}
	}
	if (!env_mount_lookup("/proc/self/mountinfo", env.dir_real, &m)) {
		put("mi_path_only_mount_point", m.mount_point);
		env_mount_free(&m);
	}
	env_free(&env);
	return 0;
}
