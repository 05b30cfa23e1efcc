// The query model rendered as a tsquery (tsqueryOf): what the search asks
// PostgreSQL's index for, with no FTS5 text in between (decision 068). That
// it selects what SQLite selects is search-parity.test.ts's part.
import { expect, test } from "vitest";
import { tsqueryOf } from "#app/data/postgres/search.server.ts";
import { both, combine, inColumn, termMatch, without } from "#app/search/query-model.ts";

const word = (w: string) => termMatch({ words: [w], prefix: null });

test("a term is its words as quoted lexemes, OR-ed two at a time; a prefix is :*", () => {
  expect(tsqueryOf(word("love"))).toBe("'love'");
  expect(tsqueryOf(termMatch({ words: ["prem", "प्रेम", "प्रेमी"], prefix: "prem" }))).toBe(
    "(('prem':* | 'प्रेम') | 'प्रेमी')",
  );
  // Quotes and backslashes stay inside the lexeme (folded words hold none; this is the guarantee).
  expect(tsqueryOf(word("a'b\\c"))).toBe("'a''b\\\\c'");
});

test("all and any join the terms; a tier is a match and, or without, another; a column marks its words", () => {
  const all = combine([word("a"), word("b"), word("c")], "all");
  expect(tsqueryOf(all)).toBe("(('a' & 'b') & 'c')");
  expect(tsqueryOf(combine([word("a"), word("b")], "any"))).toBe("('a' | 'b')");
  expect(tsqueryOf(combine([word("a")], "all"))).toBe("'a'");
  const inTitle = inColumn("title", combine([word("a"), word("b")], "any"));
  expect(tsqueryOf(inTitle)).toBe("('t:a' | 't:b')");
  expect(tsqueryOf(inColumn("tags", word("a")))).toBe("'g:a'");
  const kind = without(all, word("a"));
  expect(tsqueryOf(kind)).toBe("((('a' & 'b') & 'c') & !'a')");
  expect(tsqueryOf(both(kind, inTitle))).toBe("(((('a' & 'b') & 'c') & !'a') & ('t:a' | 't:b'))");
  expect(tsqueryOf(without(word("a"), inTitle))).toBe("('a' & !('t:a' | 't:b'))");
});
