package io.bullpen.lua;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-1 as Redis names scripts: lowercase hex of the digest of the script's UTF-8 bytes. */
final class Sha1 {

  private Sha1() {}

  static String hex(String text) {
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK must provide SHA-1", e);
    }
    return HexFormat.of().formatHex(digest);
  }
}
