-- SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
-- pandoc filter: reference docs as man pages (make man). Each document's
-- level-1 headings become sections (.SH) in capitals, the rest subsections
-- (.SS); the SEE ALSO section moves to the end of the page; links show their
-- text only and images are left out (a terminal has neither); tables get
-- column widths that fit a terminal of 78 columns, and ragged-right text.

local function upper_heading(h)
	if h.level == 1 then
		h.content = { pandoc.Str(pandoc.text.upper(pandoc.utils.stringify(h.content))) }
	end
	return h
end

function Pandoc(doc)
	local body, see_also, in_see_also = {}, {}, false
	for _, b in ipairs(doc.blocks) do
		if b.t == 'Header' and b.level == 1 then
			in_see_also = pandoc.utils.stringify(b.content) == 'SEE ALSO'
		end
		table.insert(in_see_also and see_also or body, upper_heading(b))
	end
	for _, b in ipairs(see_also) do
		table.insert(body, b)
	end
	doc.blocks = body
	return doc
end

function Link(l)
	return l.content
end

function Image(_)
	return {}
end

-- pandoc writes a column of width 1 as 70 ens, and tbl puts 3 between
-- columns; a man page's text is 71 ens wide on 78 columns. Each column gets
-- its longest word, and the room left goes by the length of its text. Code
-- counts a fifth more: PostScript's fixed-width font is wider than its ens.
local PANDOC_ENS, TEXT_ENS, GAP_ENS, CODE = 70, 71, 3, 1.2

-- The widest word of a cell (in ens) and the length of its text.
local function measure(blocks)
	local widest, cur, len = 0, 0, 0
	local function add(n)
		cur, len = cur + n, len + n
	end
	local function flush()
		widest, cur = math.max(widest, cur), 0
	end
	pandoc.walk_block(pandoc.Div(blocks), {
		Str = function(s) add(#s.text) end,
		Code = function(c)
			for sp, w in c.text:gmatch('(%s*)(%S+)') do
				if #sp > 0 then flush() end
				add(#w * CODE)
			end
		end,
		Space = flush,
		SoftBreak = flush,
		LineBreak = flush,
	})
	flush()
	return math.ceil(widest) + 1, len
end

function Table(t)
	local n = #t.colspecs
	local word, text, need, all = {}, {}, 0, 0
	for i = 1, n do
		word[i], text[i] = 1, 1
	end
	local function scan(rows)
		for _, row in ipairs(rows) do
			for i, cell in ipairs(row.cells) do
				local w, l = measure(cell.contents)
				word[i], text[i] = math.max(word[i], w), text[i] + l
			end
		end
	end
	scan(t.head.rows)
	for _, body in ipairs(t.bodies) do
		scan(body.body)
	end
	for i = 1, n do
		need, all = need + word[i], all + text[i]
	end
	local room = math.max(0, TEXT_ENS - GAP_ENS * (n - 1) - need)
	for i = 1, n do
		local ens = word[i] + math.floor(room * text[i] / all)
		t.colspecs[i] = { t.colspecs[i][1], ens / PANDOC_ENS }
	end
	-- Narrow columns cannot be justified: no adjusting in tables. On a
	-- terminal (one long page, cR) make room first, or tbl warns that a
	-- cell near the page's current end does not fit.
	return { pandoc.RawBlock('man', '.na\n.if \\n[cR] .ne 30v'), t,
		 pandoc.RawBlock('man', '.ad') }
end
