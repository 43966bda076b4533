#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The built man pages cover what the programs accept: every command of "rdmakit --help" has a
section in rdmakit(1), every option its --help prints is set in bold there (in the command's
section or in COMMON OPTIONS); every key of the plugin's option tables starts an entry in
rdmakit-collectd(5); and, once the subagent is built, every option of "rdmakit-agentx --help"
is in rdmakit-agentx(8)."""
import glob
import os
import re
import subprocess
import unittest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MAN_DIR = os.environ.get("RDMAKIT_MAN_DIR", os.path.join(TOP, "build", "man"))
RDMAKIT = os.environ.get("RDMAKIT", os.path.join(TOP, "build", "cli", "rdmakit"))
AGENTX = os.environ.get("RDMAKIT_AGENTX", "")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[A-Za-z])\b")


def page(name):
    with open(os.path.join(MAN_DIR, name)) as f:
        return f.read().replace("\\-", "-")


def help_text(*args):
    proc = subprocess.run(args, capture_output=True, text=True, timeout=10)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {proc.returncode}: {proc.stderr}")
    return proc.stdout


def sections(roff, macro):
    """{first word of the heading: body} for each .SH or .SS heading."""
    parts = re.split(rf"^\.{macro} (.*)$", roff, flags=re.M)
    return {heading.split()[0]: body for heading, body in zip(parts[1::2], parts[2::2])}


def bold(roff):
    return set(re.findall(r"\\fB([^\\]*)\\fR", roff))


def commands():
    """The command names "rdmakit --help" lists."""
    out = help_text(RDMAKIT, "--help")
    listing = out.split("Commands:", 1)[1].split("\n\n", 1)[0]
    names = [line.split()[0] for line in listing.splitlines() if line.strip()]
    if not names:
        raise AssertionError("rdmakit --help lists no commands")
    return names


class RdmakitPage(unittest.TestCase):
    def setUp(self):
        self.roff = page("rdmakit.1")
        chapters = sections(self.roff, "SH")
        self.common = bold(chapters["COMMON"])
        self.commands = {name: bold(body) for name, body in
                         sections(chapters["COMMANDS"], "SS").items()}

    def test_every_command_has_a_section(self):
        missing = [c for c in commands() if c not in self.commands]
        self.assertEqual(missing, [], "commands without a section in rdmakit(1)")

    def test_every_option_of_every_help_is_in_bold(self):
        missing = []
        for command in commands():
            documented = self.commands.get(command, set()) | self.common
            for option in sorted(set(OPTION.findall(help_text(RDMAKIT, command, "--help")))):
                if option not in documented:
                    missing.append(f"{command} {option}")
        self.assertEqual(missing, [], "options of --help missing from rdmakit(1)")

    def test_top_level_options_and_exit_statuses(self):
        everywhere = bold(self.roff)
        for option in OPTION.findall(help_text(RDMAKIT, "--help")):
            self.assertIn(option, everywhere)
        statuses = bold(sections(self.roff, "SH")["EXIT"])
        self.assertTrue({"0", "1", "2", "3"} <= statuses, statuses)


def plugin_keys():
    """The option names of the plugin's key tables ({"Name", apply} in cd_config*.c)."""
    keys = []
    for path in sorted(glob.glob(os.path.join(TOP, "collectd-plugin", "cd_config*.c"))):
        with open(path) as f:
            keys += re.findall(r'\{"([A-Za-z]+)",\s*\w+\}', f.read())
    return keys


class CollectdPage(unittest.TestCase):
    def test_every_plugin_key_starts_an_entry(self):
        keys = plugin_keys()
        self.assertIn("SysfsRoot", keys)
        self.assertIn("CAPort", keys)
        roff = page("rdmakit-collectd.5")
        entries = set(re.findall(r"^\\fB([A-Za-z]+)\\fR", roff, flags=re.M))
        self.assertEqual(sorted(set(keys) - entries), [],
                         "plugin options missing from rdmakit-collectd(5)")


@unittest.skipUnless(AGENTX, "rdmakit-agentx is not built (no snmp-subagent/)")
class AgentxPage(unittest.TestCase):
    def test_every_option_of_help_is_in_bold(self):
        documented = bold(page("rdmakit-agentx.8"))
        options = set(OPTION.findall(help_text(AGENTX, "--help")))
        self.assertEqual(sorted(options - documented), [],
                         "options of --help missing from rdmakit-agentx(8)")


if __name__ == "__main__":
    unittest.main()
