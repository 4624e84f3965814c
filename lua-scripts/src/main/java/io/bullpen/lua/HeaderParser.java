package io.bullpen.lua;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns the header block of a script into a {@link ScriptHeader}, collecting its problems. */
final class HeaderParser {

  private static final Pattern ENTRY = Pattern.compile("^\\s+(\\d+)\\s+(\\S+)\\s*(.*)$");
  private static final List<String> SECTIONS = List.of("KEYS", "ARGV", "Returns", "Events");
  /** Optional sections: {@code Records:} lays out the kinds of a repeated ARGV tail. */
  private static final List<String> OPTIONAL = List.of("Records");
  /** A record kind's line: {@code kind: field field ...}; further lines continue its fields. */
  private static final Pattern RECORD = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*):\\s*(.*)$");
  private static final Pattern FIELD_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final String fileName;
  private final List<String> problems = new ArrayList<>();
  private final Map<String, Section> sections = new LinkedHashMap<>();
  private final List<String> description = new ArrayList<>();
  private String name = "";

  private HeaderParser(String fileName) {
    this.fileName = fileName;
  }

  static ScriptHeader parse(String fileName, String text) {
    return new HeaderParser(fileName).run(blockOf(fileName, Texts.normalize(text)));
  }

  /** The lines between the opening {@code --[[} line and the first {@code ]]} line. */
  private static List<String> blockOf(String fileName, String text) {
    String[] lines = text.split("\n", -1);
    if (!lines[0].trim().equals("--[[")) {
      throw new IllegalArgumentException(
          "script '" + fileName + "': missing header block (the first line must be '--[[')");
    }
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].trim().equals("]]")) {
        return List.of(lines).subList(1, i);
      }
    }
    throw new IllegalArgumentException(
        "script '" + fileName + "': header block is not closed by a ']]' line");
  }

  private ScriptHeader run(List<String> block) {
    Section current = null;
    boolean named = false;
    for (String line : block) {
      String trimmed = line.trim();
      String title = sectionTitle(trimmed);
      if (title != null) {
        current = new Section(title);
        if (sections.putIfAbsent(title, current) != null) {
          problems.add("duplicate " + title + ": section");
        }
      } else if (trimmed.isEmpty()) {
        continue;
      } else if (current != null) {
        current.add(line);
      } else if (!named) {
        named = true;
        nameLine(trimmed);
      } else {
        description.add(trimmed);
      }
    }
    if (!named) {
      problems.add("missing '<name>: <description>' line");
    }
    if (description.isEmpty()) {
      problems.add("missing description");
    }
    for (String title : SECTIONS) {
      Section section = sections.get(title);
      if (section == null) {
        problems.add("missing " + title + ": section");
      } else {
        section.check(problems);
      }
    }
    return new ScriptHeader(
        name,
        String.join("\n", description),
        entries("KEYS"),
        entries("ARGV"),
        text("Returns"),
        text("Events"),
        records(),
        problems);
  }

  private void nameLine(String trimmed) {
    int colon = trimmed.indexOf(':');
    name = (colon < 0 ? trimmed : trimmed.substring(0, colon)).trim();
    String rest = colon < 0 ? "" : trimmed.substring(colon + 1).trim();
    if (!rest.isEmpty()) {
      description.add(rest);
    }
    if (!name.equals(fileName)) {
      problems.add("header names '" + name + "' but the file is '" + fileName + ".lua'");
    }
  }

  /**
   * The {@code Records:} section: per kind, its field names in record order (the kind itself is
   * the record's first value). Empty when the script has no such section.
   */
  private Map<String, List<String>> records() {
    Section section = sections.get("Records");
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (section == null) {
      return out;
    }
    List<String> current = null;
    for (String line : section.text) {
      Matcher m = RECORD.matcher(line);
      String fields = line;
      if (m.matches()) {
        current = new ArrayList<>();
        if (out.putIfAbsent(m.group(1), current) != null) {
          problems.add("Records: duplicate kind '" + m.group(1) + "'");
        }
        fields = m.group(2);
      } else if (current == null) {
        problems.add("Records: text before the first 'kind:' line: '" + line + "'");
        continue;
      }
      for (String field : fields.trim().split("\\s+")) {
        if (field.isEmpty()) {
          continue;
        }
        if (!FIELD_NAME.matcher(field).matches() || current.contains(field)) {
          problems.add("Records: bad or duplicate field '" + field + "'");
        }
        current.add(field);
      }
    }
    out.replaceAll((kind, fields) -> List.copyOf(fields));
    return out;
  }

  private static String sectionTitle(String trimmed) {
    for (String title : OPTIONAL) {
      if (trimmed.equals(title + ":")) {
        return title;
      }
    }
    for (String title : SECTIONS) {
      if (trimmed.equals(title + ":")) {
        return title;
      }
    }
    return null;
  }

  private List<ScriptHeader.Entry> entries(String title) {
    Section section = sections.get(title);
    return section == null ? List.of() : section.entries();
  }

  private String text(String title) {
    Section section = sections.get(title);
    return section == null ? "" : String.join("\n", section.text);
  }

  /** One section's raw content; KEYS and ARGV are numbered entries, the others free text. */
  private static final class Section {
    private final String title;
    private final boolean numbered;
    private final List<String[]> entries = new ArrayList<>(); // {index, name, description}
    private final List<String> text = new ArrayList<>();
    private final List<String> orphans = new ArrayList<>();
    private boolean none;

    Section(String title) {
      this.title = title;
      this.numbered = title.equals("KEYS") || title.equals("ARGV");
    }

    void add(String line) {
      String trimmed = line.trim();
      text.add(trimmed);
      if (!numbered) {
        return;
      }
      Matcher m = ENTRY.matcher(line);
      if (m.matches()) {
        entries.add(new String[] {m.group(1), m.group(2), m.group(3).trim()});
      } else if (trimmed.equals("none") && entries.isEmpty()) {
        none = true;
      } else if (entries.isEmpty()) {
        orphans.add(trimmed);
      } else {
        String[] last = entries.get(entries.size() - 1);
        last[2] = last[2].isEmpty() ? trimmed : last[2] + " " + trimmed;
      }
    }

    List<ScriptHeader.Entry> entries() {
      List<ScriptHeader.Entry> out = new ArrayList<>();
      for (String[] e : entries) {
        out.add(new ScriptHeader.Entry(parseIndex(e[0]), e[1], e[2]));
      }
      return out;
    }

    void check(List<String> problems) {
      if (!numbered) {
        if (text.isEmpty()) {
          problems.add(title + ": section is empty"
              + (title.equals("Events") ? " (write 'none' if the script emits no events)" : ""));
        }
        return;
      }
      for (String orphan : orphans) {
        problems.add(title + ": text before the first numbered entry: '" + orphan + "'");
      }
      if (entries.isEmpty() && !none) {
        problems.add(title + ": section has no entries (write 'none' if there are none)");
      }
      if (!entries.isEmpty() && none) {
        problems.add(title + ": says 'none' but has entries");
      }
      checkNumbering(problems);
      checkNames(problems);
    }

    private void checkNumbering(List<String> problems) {
      List<String> written = new ArrayList<>();
      boolean inOrder = true;
      for (int i = 0; i < entries.size(); i++) {
        written.add(entries.get(i)[0]);
        inOrder &= parseIndex(entries.get(i)[0]) == i + 1;
      }
      if (!inOrder) {
        problems.add(title + ": entries must be numbered 1.." + entries.size()
            + " in order, found " + String.join(", ", written));
      }
    }

    private void checkNames(List<String> problems) {
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < entries.size(); i++) {
        String entryName = entries.get(i)[1];
        boolean repeated = entryName.endsWith("...");
        String base = repeated ? entryName.substring(0, entryName.length() - 3) : entryName;
        if (!seen.add(base)) {
          problems.add(title + ": duplicate name '" + base + "'");
        }
        // The key count must be fixed for EVALSHA; only the argument tail may repeat.
        if (repeated && title.equals("KEYS")) {
          problems.add("KEYS: '" + entryName + "' cannot repeat (numkeys is fixed)");
        } else if (repeated && i != entries.size() - 1) {
          problems.add("ARGV: '" + entryName + "' repeats, so it must be the last entry");
        }
      }
    }

    private static int parseIndex(String digits) {
      try {
        return Integer.parseInt(digits);
      } catch (NumberFormatException e) {
        return -1; // absurdly large; the numbering check reports it
      }
    }
  }
}
