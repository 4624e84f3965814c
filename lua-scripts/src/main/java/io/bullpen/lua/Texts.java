package io.bullpen.lua;

/** Text normalization shared by header parsing and include expansion. */
final class Texts {

  private Texts() {}

  /**
   * Strips a UTF-8 byte order mark and turns CRLF/CR into LF, so a checkout with Windows line
   * endings yields the same expanded source, and so the same SHA-1, as any other.
   */
  static String normalize(String text) {
    String s = text.startsWith("\uFEFF") ? text.substring(1) : text;
    return s.indexOf('\r') < 0 ? s : s.replace("\r\n", "\n").replace('\r', '\n');
  }
}
