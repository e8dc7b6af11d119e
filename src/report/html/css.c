/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * css.c - embeds page.css, the style sheet of the page, with the
 * assembler's .incbin (as workload/builtin.c embeds the built-in
 * workload), NUL-terminated.  The Makefile rebuilds this object when
 * page.css changes.
 */
#include "html.h"

__asm__(".section .rodata\n"
	"html_css_start:\n"
	".incbin \"src/report/html/page.css\"\n"
	".byte 0\n"
	".previous\n");

extern const char html_css_start[] __asm__("html_css_start");

const char *html_css_text(void)
{
	return html_css_start;
}
