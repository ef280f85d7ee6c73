/*
 * An independent PDF signature validator for the tests, built on iText 5 and BouncyCastle as Debian ships them
 * (libitext5-java, libbcpkix-java, libbcprov-java). It judges what our engine wrote with code that is not ours, so it
 * reports what iText says verbatim (messages and exceptions) and never turns an iText limitation into a pass.
 *
 * Usage: java -cp <dir>:itext5.jar:bcprov.jar:bcpkix.jar:bcutil.jar ItextVerify <file.pdf> [roots.pem]
 * Prints exactly one JSON object to stdout, also when the file cannot be read (then "errors" says why).
 */
import com.itextpdf.text.pdf.AcroFields;
import com.itextpdf.text.pdf.PRStream;
import com.itextpdf.text.pdf.PdfArray;
import com.itextpdf.text.pdf.PdfDictionary;
import com.itextpdf.text.pdf.PdfName;
import com.itextpdf.text.pdf.PdfNumber;
import com.itextpdf.text.pdf.PdfReader;
import com.itextpdf.text.pdf.security.CRLVerifier;
import com.itextpdf.text.pdf.security.CertificateVerification;
import com.itextpdf.text.pdf.security.LtvVerification;
import com.itextpdf.text.pdf.security.LtvVerifier;
import com.itextpdf.text.pdf.security.OCSPVerifier;
import com.itextpdf.text.pdf.security.PdfPKCS7;
import com.itextpdf.text.pdf.security.RootStoreVerifier;
import com.itextpdf.text.pdf.security.VerificationException;
import com.itextpdf.text.pdf.security.VerificationOK;
import java.io.ByteArrayInputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Security;
import java.security.cert.CRL;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.ocsp.BasicOCSPResp;
import org.bouncycastle.cert.ocsp.OCSPResp;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.tsp.TimeStampToken;

public final class ItextVerify {
  private ItextVerify() {}

  public static void main(String[] args) {
    // stdout carries only the JSON: anything a library prints goes to stderr.
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    Json report = new Json();
    List<String> errors = new ArrayList<>();
    try {
      if (args.length < 1 || args.length > 2) {
        throw new IllegalArgumentException("usage: ItextVerify <file.pdf> [roots.pem]");
      }
      Security.addProvider(new BouncyCastleProvider());
      KeyStore roots = args.length == 2 ? loadRoots(args[1]) : null;
      verify(Files.readAllBytes(Paths.get(args[0])), roots, report, errors);
    } catch (Throwable e) {
      errors.add(describe(e));
    }
    if (!report.has("signatures")) report.raw("signatures", "[]");
    report.strings("errors", errors);
    out.println(report.close());
    out.flush();
    System.exit(0);
  }

  private static KeyStore loadRoots(String file) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    try (InputStream in = new FileInputStream(file)) {
      int i = 0;
      for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("root" + i++, certificate);
      }
      if (i == 0) throw new IllegalArgumentException("no certificate in " + file);
    }
    return store;
  }

  private static void verify(byte[] bytes, KeyStore roots, Json report, List<String> errors) throws Exception {
    // PdfReader opens an encrypted file with the empty user password, as a viewer would.
    PdfReader reader = new PdfReader(bytes);
    AcroFields fields = reader.getAcroFields();
    List<String> names = fields.getSignatureNames();
    report.bool("encrypted", reader.isEncrypted());
    report.number("totalRevisions", fields.getTotalRevisions());
    report.number("certificationLevel", reader.getCertificationLevel());
    report.bool("rootsGiven", roots != null);

    DssData dss = DssData.read(reader.getCatalog().getAsDict(PdfName.DSS), errors);
    Map<String, LtvResult> ltv = names.isEmpty() ? new LinkedHashMap<>() : runLtvVerifier(bytes, roots, names, report);

    List<String> signatures = new ArrayList<>();
    for (String name : names) {
      signatures.add(signature(reader, fields, name, roots, dss, ltv.get(name)));
    }
    report.raw("signatures", "[" + String.join(",", signatures) + "]");
  }

  /** One signature's JSON; every step catches its own exception so one failure does not hide the others. */
  private static String signature(
      PdfReader reader, AcroFields fields, String name, KeyStore roots, DssData dss, LtvResult ltv) {
    Json json = new Json();
    List<String> errors = new ArrayList<>();
    json.string("name", name);
    try {
      json.number("revision", fields.getRevision(name));
      json.number("totalRevisions", fields.getTotalRevisions());
      json.bool("coversWholeDocument", fields.signatureCoversWholeDocument(name));
    } catch (Throwable e) {
      errors.add("revision: " + describe(e));
    }
    PdfDictionary dictionary = fields.getSignatureDictionary(name);
    json.string("subFilter", nameOf(dictionary == null ? null : dictionary.getAsName(PdfName.SUBFILTER)));
    json.number("certifyLevel", certifyLevel(dictionary));
    PdfPKCS7 pkcs7 = null;
    try {
      pkcs7 = fields.verifySignature(name, "BC");
    } catch (Throwable e) {
      errors.add("verifySignature: " + describe(e));
    }
    if (pkcs7 == null) {
      json.nil("integrity");
    } else {
      try {
        json.bool("integrity", pkcs7.verify());
      } catch (Throwable e) {
        json.bool("integrity", false);
        errors.add("verify: " + describe(e));
      }
      json.bool("isTsp", pkcs7.isTsp());
      X509Certificate signer = pkcs7.getSigningCertificate();
      json.string("signer", signer == null ? null : signer.getSubjectX500Principal().getName());
      json.string("signName", pkcs7.getSignName());
      json.string("signDate", iso(pkcs7.getSignDate()));
      json.string("digestAlgorithm", safe(pkcs7::getDigestAlgorithm, errors));
      json.raw("timestamp", timestamp(pkcs7, roots, errors));
      Date at = validationDate(pkcs7);
      json.raw("chainErrors", roots == null ? "null" : chainErrors(pkcs7.getSignCertificateChain(), roots, at, errors));
      json.raw("revocation", revocation(pkcs7, roots, dss, at));
    }
    json.raw("ltv", ltv == null ? LtvResult.notReached().json() : ltv.json());
    json.strings("errors", errors);
    return json.close();
  }

  /**
   * The signature timestamp (or, for a document timestamp, the token itself): whether its message imprint matches.
   * For a document timestamp the imprint is over the ByteRange, which PdfPKCS7.verify() checks; verifyTimestampImprint
   * only knows signature timestamps (the imprint of the signature value), so it is not asked there.
   */
  private static String timestamp(PdfPKCS7 pkcs7, KeyStore roots, List<String> errors) {
    Json json = new Json();
    TimeStampToken token = pkcs7.getTimeStampToken();
    json.bool("present", token != null);
    if (token == null) return json.close();
    try {
      json.bool("imprintValid", pkcs7.isTsp() ? pkcs7.verify() : pkcs7.verifyTimestampImprint());
    } catch (Throwable e) {
      json.bool("imprintValid", false);
      errors.add("timestamp imprint: " + describe(e));
    }
    json.string("time", iso(pkcs7.getTimeStampDate()));
    if (roots != null) {
      try {
        json.bool("chainTrusted", CertificateVerification.verifyTimestampCertificates(token, roots, "BC"));
      } catch (Throwable e) {
        json.bool("chainTrusted", false);
        errors.add("timestamp chain: " + describe(e));
      }
      try {
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter().setProvider("BC");
        List<Certificate> certificates = new ArrayList<>();
        for (Object holder : token.getCertificates().getMatches(null)) {
          certificates.add(converter.getCertificate((X509CertificateHolder) holder));
        }
        Certificate[] chain = certificates.toArray(new Certificate[0]);
        json.raw("chainErrors", chainErrors(chain, roots, token.getTimeStampInfo().getGenTime(), errors));
      } catch (Throwable e) {
        errors.add("timestamp certificates: " + describe(e));
      }
    }
    return json.close();
  }

  /** CertificateVerification.verifyCertificates against the roots, at `at`, each message verbatim. */
  private static String chainErrors(Certificate[] chain, KeyStore roots, Date at, List<String> errors) {
    try {
      Calendar calendar = Calendar.getInstance();
      calendar.setTime(at);
      List<String> messages = new ArrayList<>();
      for (VerificationException e : CertificateVerification.verifyCertificates(chain, roots, calendar)) {
        messages.add(e.getMessage());
      }
      return Json.array(messages);
    } catch (Throwable e) {
      errors.add("verifyCertificates: " + describe(e));
      return Json.array(List.of(describe(e)));
    }
  }

  /**
   * Each certificate of the chain (issuer after it) through iText's own verifier chain, OCSPVerifier → CRLVerifier →
   * RootStoreVerifier, with the CRLs and OCSP responses of the document's DSS and of the CMS itself, online checking
   * off, at the timestamp's time (or the claimed signing time). Unlike LtvVerifier this also judges B-LT, where the DSS
   * revision follows the last signature.
   */
  private static String revocation(PdfPKCS7 pkcs7, KeyStore roots, DssData dss, Date at) {
    Json json = new Json();
    List<String> messages = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    boolean revoked = false;
    boolean checked = false;
    List<X509CRL> crls = new ArrayList<>(dss.crls);
    List<BasicOCSPResp> ocsps = new ArrayList<>(dss.ocsps);
    Collection<CRL> own = pkcs7.getCRLs();
    if (own != null) for (CRL crl : own) if (crl instanceof X509CRL) crls.add((X509CRL) crl);
    if (pkcs7.getOcsp() != null) ocsps.add(pkcs7.getOcsp());
    Certificate[] chain = pkcs7.getSignCertificateChain();
    for (int i = 0; i < chain.length; i++) {
      X509Certificate certificate = (X509Certificate) chain[i];
      X509Certificate issuer = i + 1 < chain.length ? (X509Certificate) chain[i + 1] : null;
      try {
        RootStoreVerifier rootStore = new RootStoreVerifier(null);
        rootStore.setRootStore(roots);
        CRLVerifier crlVerifier = new CRLVerifier(rootStore, crls);
        crlVerifier.setRootStore(roots);
        crlVerifier.setOnlineCheckingAllowed(false);
        OCSPVerifier ocspVerifier = new OCSPVerifier(crlVerifier, ocsps);
        ocspVerifier.setRootStore(roots);
        ocspVerifier.setOnlineCheckingAllowed(false);
        for (VerificationOK ok : ocspVerifier.verify(certificate, issuer, at)) {
          String message = ok.toString();
          messages.add(message);
          if (i == 0 && (message.contains("Valid CRLs found") || message.contains("Valid OCSPs Found"))) checked = true;
        }
      } catch (Throwable e) {
        String message = describe(e);
        errors.add(message);
        if (message.contains("revoked")) {
          revoked = true;
          checked = true;
        }
      }
    }
    json.bool("checked", checked);
    json.bool("revoked", revoked);
    json.number("crls", crls.size());
    json.number("ocspResponses", ocsps.size());
    json.strings("messages", messages);
    json.strings("errors", errors);
    return json.close();
  }

  /**
   * iText's LtvVerifier over the whole file (roots as its root store, the root not required to be verified, the whole
   * chain, online checking off), its messages and exception attributed to the signature it was checking.
   */
  private static Map<String, LtvResult> runLtvVerifier(byte[] bytes, KeyStore roots, List<String> names, Json report) {
    Map<String, LtvResult> results = new LinkedHashMap<>();
    String last = names.get(names.size() - 1);
    Json summary = new Json();
    TrackingLtvVerifier verifier = null;
    try {
      verifier = new TrackingLtvVerifier(new PdfReader(bytes), results);
      verifier.setRootStore(roots);
      verifier.setVerifyRootCertificate(false);
      verifier.setCertificateOption(LtvVerification.CertificateOption.WHOLE_CHAIN);
      verifier.setOnlineCheckingAllowed(false);
      verifier.verify(null);
      summary.bool("ok", true);
      summary.nil("error");
    } catch (Throwable e) {
      // The constructor checks the last signature; later failures belong to the signature being checked then.
      String culprit = verifier == null ? last : verifier.current();
      results.computeIfAbsent(culprit, k -> new LtvResult()).fail(describe(e));
      summary.bool("ok", false);
      summary.string("error", describe(e));
    }
    report.raw("ltv", summary.close());
    return results;
  }

  /** LtvVerifier with bookkeeping only: which signature each message and exception belongs to. */
  static final class TrackingLtvVerifier extends LtvVerifier {
    private final Map<String, LtvResult> results;

    TrackingLtvVerifier(PdfReader reader, Map<String, LtvResult> results) throws GeneralSecurityException {
      super(reader);
      this.results = results;
      // iText allows online CRL/OCSP fetches for the latest revision whatever setOnlineCheckingAllowed says; tests
      // judge what the file holds (and have no network), so the latest revision is checked offline too. The flag
      // only adds the note "Root certificate in final revision" otherwise.
      latestRevision = false;
    }

    String current() {
      return signatureName;
    }

    private LtvResult result() {
      return results.computeIfAbsent(signatureName, k -> new LtvResult());
    }

    @Override
    public List<VerificationOK> verifySignature() throws GeneralSecurityException, IOException {
      LtvResult result = result();
      result.reached = true;
      int before = result.messages.size();
      List<VerificationOK> list = super.verifySignature();
      // super's list also has the root-certificate notes that verify() never returns: take it whole.
      result.messages.subList(before, result.messages.size()).clear();
      for (VerificationOK ok : list) result.messages.add(ok.toString());
      return list;
    }

    @Override
    public List<VerificationOK> verify(X509Certificate signCert, X509Certificate issuerCert, Date signDate)
        throws GeneralSecurityException, IOException {
      List<VerificationOK> list = super.verify(signCert, issuerCert, signDate);
      for (VerificationOK ok : list) result().messages.add(ok.toString());
      return list;
    }

    @Override
    public void switchToPreviousRevision() throws IOException, GeneralSecurityException {
      // Reached only when the current signature's whole chain passed.
      result().ok = true;
      super.switchToPreviousRevision();
      if (pkcs7 != null) result().reached = true;
    }
  }

  static final class LtvResult {
    boolean reached;
    boolean ok;
    final List<String> messages = new ArrayList<>();
    final List<String> errors = new ArrayList<>();

    static LtvResult notReached() {
      return new LtvResult();
    }

    void fail(String error) {
      reached = true;
      ok = false;
      errors.add(error);
    }

    String json() {
      Json json = new Json();
      json.bool("checked", reached);
      json.bool("ok", ok && errors.isEmpty());
      json.strings("messages", messages);
      json.strings("errors", errors);
      return json.close();
    }
  }

  /** The CRLs and OCSP responses of the file's (latest) DSS. */
  static final class DssData {
    final List<X509CRL> crls = new ArrayList<>();
    final List<BasicOCSPResp> ocsps = new ArrayList<>();

    static DssData read(PdfDictionary dss, List<String> errors) {
      DssData data = new DssData();
      if (dss == null) return data;
      try {
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        PdfArray crls = dss.getAsArray(PdfName.CRLS);
        for (int i = 0; crls != null && i < crls.size(); i++) {
          byte[] der = PdfReader.getStreamBytes((PRStream) crls.getAsStream(i));
          data.crls.add((X509CRL) factory.generateCRL(new ByteArrayInputStream(der)));
        }
        PdfArray ocsps = dss.getAsArray(PdfName.OCSPS);
        for (int i = 0; ocsps != null && i < ocsps.size(); i++) {
          OCSPResp response = new OCSPResp(PdfReader.getStreamBytes((PRStream) ocsps.getAsStream(i)));
          if (response.getStatus() == 0) data.ocsps.add((BasicOCSPResp) response.getResponseObject());
        }
      } catch (Throwable e) {
        errors.add("DSS: " + describe(e));
      }
      return data;
    }
  }

  /** The DocMDP permission P of a certification signature (its /Reference entry), 0 for an approval signature. */
  private static int certifyLevel(PdfDictionary signature) {
    PdfArray references = signature == null ? null : signature.getAsArray(PdfName.REFERENCE);
    for (int i = 0; references != null && i < references.size(); i++) {
      PdfDictionary reference = references.getAsDict(i);
      if (reference == null || !PdfName.DOCMDP.equals(reference.getAsName(PdfName.TRANSFORMMETHOD))) continue;
      PdfDictionary params = reference.getAsDict(PdfName.TRANSFORMPARAMS);
      PdfNumber p = params == null ? null : params.getAsNumber(PdfName.P);
      return p == null ? 2 : p.intValue(); // ISO 32000-1 Table 254: P defaults to 2
    }
    return 0;
  }

  private static Date validationDate(PdfPKCS7 pkcs7) {
    Calendar at = pkcs7.getTimeStampDate();
    return at != null ? at.getTime() : new Date();
  }

  private interface Source<T> {
    T get() throws Exception;
  }

  private static <T> T safe(Source<T> source, List<String> errors) {
    try {
      return source.get();
    } catch (Throwable e) {
      errors.add(describe(e));
      return null;
    }
  }

  private static String nameOf(PdfName name) {
    return name == null ? null : PdfName.decodeName(name.toString());
  }

  private static String iso(Calendar calendar) {
    return calendar == null ? null : calendar.toInstant().toString();
  }

  /** An exception as iText or BouncyCastle worded it: its message, or its class when it has none, and its cause. */
  static String describe(Throwable e) {
    String message = e.getMessage() != null ? e.getMessage() : e.getClass().getName();
    Throwable cause = e.getCause();
    if (cause != null && cause != e && cause.getMessage() != null && !message.contains(cause.getMessage())) {
      message += " (" + cause.getClass().getSimpleName() + ": " + cause.getMessage() + ")";
    }
    return message;
  }

  /** A JSON object written by hand: keys in insertion order, strings escaped per RFC 8259 (non-ASCII as \\u). */
  static final class Json {
    private final StringBuilder out = new StringBuilder("{");
    private final Set<String> keys = new HashSet<>();

    boolean has(String key) {
      return keys.contains(key);
    }

    private Json key(String key) {
      keys.add(key);
      if (out.length() > 1) out.append(',');
      out.append(quote(key)).append(':');
      return this;
    }

    void string(String key, String value) {
      key(key).out.append(value == null ? "null" : quote(value));
    }

    void bool(String key, boolean value) {
      key(key).out.append(value);
    }

    void number(String key, long value) {
      key(key).out.append(value);
    }

    void nil(String key) {
      key(key).out.append("null");
    }

    void raw(String key, String json) {
      key(key).out.append(json);
    }

    void strings(String key, List<String> values) {
      key(key).out.append(array(values));
    }

    String close() {
      return out.toString() + "}";
    }

    static String array(List<String> values) {
      StringBuilder b = new StringBuilder("[");
      for (String value : values) {
        if (b.length() > 1) b.append(',');
        b.append(value == null ? "null" : quote(value));
      }
      return b.append(']').toString();
    }

    static String quote(String value) {
      StringBuilder b = new StringBuilder("\"");
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        switch (c) {
          case '"' -> b.append("\\\"");
          case '\\' -> b.append("\\\\");
          case '\n' -> b.append("\\n");
          case '\r' -> b.append("\\r");
          case '\t' -> b.append("\\t");
          default -> {
            if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
          }
        }
      }
      return b.append('"').toString();
    }
  }
}
