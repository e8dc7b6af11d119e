/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * labels.c - labels of a plot that must not overlap: each is given the
 * first of its candidate places whose box (estimated from the text's
 * length and size, on the wide side) meets no box placed before and stays
 * inside the plot area; a label with no free place is left out (its
 * marker's title still says it).
 */
#include "svg.h"

/* The width of @s (UTF-8) in @px text: wide, bold glyphs of DejaVu Sans
 * are 0.7 em at most on average over a label. */
static double text_width(const char *s, double px)
{
	double n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += (*p & 0xc0) != 0x80;
	return n * px * 0.7;
}

static bool meets(const struct lbox *a, const struct lbox *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h &&
	       b->y < a->y + a->h;
}

/* The box of @s at (x, y) (baseline), anchored at its start or end. */
struct lbox html_label_box(const char *s, double px, double x, double y,
			   bool end)
{
	struct lbox b = {.w = text_width(s, px) + 4, .h = px * 1.3 + 2};

	b.x = (end ? x - b.w + 2 : x - 2);
	b.y = y - px * 1.05 - 1;
	return b;
}

bool html_label_free(struct labels *l, const struct lbox *b)
{
	if (b->x < l->x0 || b->y < l->y0 || b->x + b->w > l->x1 ||
	    b->y + b->h > l->y1)
		return false;
	for (int i = 0; i < l->n; i++) {
		if (meets(&l->b[i], b))
			return false;
	}
	return true;
}

void html_label_take(struct labels *l, const struct lbox *b)
{
	if (l->n < LABELS_MAX)
		l->b[l->n++] = *b;
}

/*
 * Place @s (@px text), and under it @s2 (10 px text; NULL: none), near
 * the point (@x, @y): right of it, left of it, below, above, further
 * below.  True with the place of @s in *@ox, *@oy (@s2 is 14 units
 * lower) and *@end (anchored at its end), its box taken.
 */
bool html_label_place(struct labels *l, const char *s, double px,
		      const char *s2, double x, double y, double *ox,
		      double *oy, bool *end)
{
	static const struct {
		double dx, dy;
		bool end;
	} cand[] = {
		{10, -8, false},  {-10, -8, true},  {10, 16, false},
		{-10, 16, true},  {10, 30, false},  {-10, 30, true},
		{10, -22, false}, {-10, -22, true}, {10, 44, false},
		{-10, 44, true},  {10, 58, false},  {-10, 58, true},
	};

	for (size_t k = 0; k < sizeof(cand) / sizeof(cand[0]); k++) {
		double tx = x + cand[k].dx, ty = y + cand[k].dy;
		struct lbox b = html_label_box(s, px, tx, ty, cand[k].end), b2;

		if (s2) { /* the union of the two lines' boxes */
			b2 = html_label_box(s2, 10, tx, ty + 14, cand[k].end);
			if (b2.x < b.x)
				b.x = b2.x;
			if (b2.w > b.w)
				b.w = b2.w;
			b.h = b2.y + b2.h - b.y;
		}
		if (!html_label_free(l, &b))
			continue;
		html_label_take(l, &b);
		*ox = tx;
		*oy = ty;
		*end = cand[k].end;
		return true;
	}
	return false;
}

/* A square of half side @r around (@x, @y): a marker labels keep clear of */
void html_label_mark(struct labels *l, double x, double y, double r)
{
	struct lbox b = {x - r, y - r, 2 * r, 2 * r};

	html_label_take(l, &b);
}

void html_label_text_box(struct labels *l, const char *s, double px, double x,
			 double y, bool end)
{
	struct lbox b = html_label_box(s, px, x, y, end);

	html_label_take(l, &b);
}
