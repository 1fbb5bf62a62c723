"""Every Unicode script is named by :func:`core.text.scripts.script_of` (checked against the
Unicode character names of ``unicodedata``); only unassigned and private-use code points are
"Unknown"."""

from __future__ import annotations

import sys
import unicodedata

from core.text.scripts import OTHER_SCRIPTS, SCRIPTS, dominant_script, script_of


def test_a_letter_named_after_its_script_gets_that_script():
    """Oracle: a letter whose Unicode name starts with a script's name ("TAI VIET LETTER LOW
    KO", "ADLAM CAPITAL LETTER ALIF", "YI SYLLABLE IT") is of that script. O(0x30000)."""
    prefixes = {name.upper().replace("_", " ") + " ": name for name in SCRIPTS + OTHER_SCRIPTS
                if name not in ("Common", "Inherited")}
    checked, wrong = set(), []
    for cp in range(0x30000):
        ch = chr(cp)
        if unicodedata.category(ch) not in ("Lu", "Ll", "Lt", "Lo"):  # a modifier letter (Lm) may be shared
            continue
        name = unicodedata.name(ch, "")
        for prefix, script in prefixes.items():
            if name.startswith(prefix):
                checked.add(script)
                if script_of(ch) != script:
                    wrong.append((hex(cp), name, script_of(ch)))
                break
    assert not wrong, wrong[:10]
    for script in ("Tai_Viet", "Chakma", "Adlam", "Yi", "Tai_Tham", "Grantha", "Tagalog", "Vai"):
        assert script in checked  # the scripts of the UDHR texts that read "Unknown" before


def test_texts_in_the_scripts_that_were_unknown():
    texts = {"Tai_Viet": "ꪁꪫꪱꪣ ꪜꪱꪫ ꪹꪕꪸꪉ", "Chakma": "𑄟𑄚𑄬𑄭𑄃𑄇𑄴𑄇𑄥𑄧𑄁𑄢𑄴", "Adlam": "𞤇𞤀𞤐𞤘𞤋𞤐𞤀𞤐𞤁𞤉",
             "Yi": "《ꋧꃅꊽꌅꅍꄜꋊꄯꒉ》", "Tai_Tham": "ᨠᨲᩥᨠᩣᩅᩤ᩵ᨯ᩠ᩅ᩠ᨿᩢᨾᨶᩩᩔᨩᩣ᩠ᨲ", "Grantha": "𑌪𑍍𑌰𑌸𑍍𑌤𑌾𑌵𑌨𑌾",
             "Tagalog": "ᜀᜅ ᜎᜑᜆ᜔ ᜅ ᜆᜂᜌ᜔", "Vai": "ꕺꖃ ꘈꗢ ꗪ ꗪꕯ"}
    assert {script: dominant_script(text) for script, text in texts.items()} == {s: s for s in texts}


def test_only_unassigned_and_private_use_code_points_are_unknown():
    assert script_of("\ue000") == script_of("\U0010fffd") == script_of("\u0378") == "Unknown"
    assert script_of(" ") == "Common" and script_of("\u0301") == "Inherited"
    assert sys.maxunicode == 0x10FFFF
