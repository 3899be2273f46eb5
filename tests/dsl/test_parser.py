"""The parser: trees with positions, newline rules, recovery at declaration level, friendly errors."""

from __future__ import annotations

from spawnpit.dsl import MAX_DEPTH, parse
from tests.conftest import MINI


def kinds(result):
    return [d.code for d in result.diagnostics]


def test_mini_system_parses_cleanly_with_positions():
    result = parse((MINI / "system.pit").read_text(), "system.pit")
    assert result.diagnostics == ()
    decls = [c for c in result.tree.children if c is not None and c.data == "decl"]
    assert len(decls) == 8
    assert (decls[0].meta.line, decls[0].meta.column) == (2, 1)


def test_newlines_inside_brackets_and_after_commas_do_not_end_items():
    src = 'card "X" {\n  keywords a,\n    b\n  count (1 +\n 2)\n  text """two\n lines"""; deck d\n}\n'
    result = parse(src, "x.pit")
    assert result.diagnostics == ()


def test_two_properties_on_one_line_is_an_error_with_a_hint():
    result = parse('card "X" { deck d count 1 }\n', "x.pit")
    (diag,) = result.diagnostics
    assert diag.code == "E0001"
    assert (diag.span.line, diag.span.col) == (1, 19)
    assert "own line" in diag.help


def test_recovery_reports_each_broken_declaration_and_keeps_the_healthy_ones():
    src = 'card "A" { deck d $ }\ncard "B" { deck d }\ncard "C" { deck d (}\ncard "D" { count 1 2 }\n'
    result = parse(src, "x.pit")
    assert kinds(result) == ["E0002", "E0001", "E0001"]
    assert [d.span.line for d in result.diagnostics] == [1, 3, 4]
    assert "commas" in result.diagnostics[2].help
    healthy = [c for c in result.tree.children if c is not None]
    assert len(healthy) == 1 and str(healthy[0].children[2]) == '"B"'


def test_unterminated_text_and_end_of_file():
    assert kinds(parse('card "A { deck d }\n', "x.pit")) == ["E0002"]
    assert kinds(parse('card "A" { text """never closed\n', "x.pit")) == ["E0003"]
    eof = parse('card "A" {\n  deck d\n', "x.pit")
    assert kinds(eof) == ["E0003"]
    assert (eof.diagnostics[0].span.line, eof.diagnostics[0].span.col) == (1, 10)  # the unclosed `{`
    assert eof.diagnostics[0].labels[0].span.line == 3  # where the file ends


def test_reserved_word_as_a_name_says_so():
    (diag,) = parse("using for\n", "x.pit").diagnostics
    assert diag.code == "E0001"
    assert "reserved word" in diag.help


def test_nesting_limit_is_a_diagnostic_not_a_crash():
    deep = "scenario \"S\" { on x { let a = " + "(" * (MAX_DEPTH + 5) + "1" + ")" * (MAX_DEPTH + 5) + " } }\n"
    assert "E0005" in kinds(parse(deep, "x.pit"))


def test_dice_ranges_and_targets_are_tokens_but_subtraction_with_spaces_is_not_a_range():
    src = 'table t { roll 2D6\n columns "a"\n row 2-12 = "x"\n shift s = 3 - 1\n accuracy 4+ }\n'
    result = parse(src, "x.pit")
    assert result.diagnostics == ()
    body = result.tree.children[0].children[4]
    kinds_ = [c.data for c in body.children]
    assert kinds_ == ["prop", "prop", "assign_prop", "assign_prop", "prop"]


def test_recovery_skips_lines_inside_text_blocks():
    src = 'card "A" { deck d $ }\ncard "B" {\n  text """\nthis line starts in column one\nand so does this one\n"""\n}\n'
    result = parse(src, "x.pit")
    assert kinds(result) == ["E0002"]
    assert len([c for c in result.tree.children if c is not None]) == 1
