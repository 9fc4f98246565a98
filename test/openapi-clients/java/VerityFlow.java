// A customer's program on the Java (okhttp-gson) client OpenAPI Generator makes from
// /v1/openapi.json; test/e2e/openapi-clients.e2e.spec.ts compiles it with the generated sources
// and runs it. It only knows what the document says: the base URL comes from `servers`, the
// calls from the operations. Usage: java VerityFlow <admin token> <api key> <job id>, the job
// (of the key's account) processing with some rows scored.

import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import org.openapitools.client.ApiClient;
import org.openapitools.client.ApiException;
import org.openapitools.client.auth.ApiKeyAuth;
import org.openapitools.client.auth.HttpBearerAuth;
import org.openapitools.client.api.AccountApi;
import org.openapitools.client.api.AdminApi;
import org.openapitools.client.api.BatchApi;
import org.openapitools.client.api.EmailApi;
import org.openapitools.client.api.IpApi;
import org.openapitools.client.api.KeysApi;
import org.openapitools.client.api.PhoneApi;
import org.openapitools.client.api.VerifyApi;
import org.openapitools.client.model.AccountCredits;
import org.openapitools.client.model.AddCreditsRequest;
import org.openapitools.client.model.ApiKeyList;
import org.openapitools.client.model.BatchJob;
import org.openapitools.client.model.BatchJobList;
import org.openapitools.client.model.BatchJobSummary;
import org.openapitools.client.model.CreateAccountRequest;
import org.openapitools.client.model.CreateKeyRequest;
import org.openapitools.client.model.CreatedAccount;
import org.openapitools.client.model.EmailResult;
import org.openapitools.client.model.EmailValidateRequest;
import org.openapitools.client.model.FeedbackRequest;
import org.openapitools.client.model.FeedbackResult;
import org.openapitools.client.model.FeedbackStats;
import org.openapitools.client.model.IpIntelRequest;
import org.openapitools.client.model.IpResult;
import org.openapitools.client.model.IssuedApiKey;
import org.openapitools.client.model.PhoneResult;
import org.openapitools.client.model.PhoneValidateRequest;
import org.openapitools.client.model.PingResponse;
import org.openapitools.client.model.VerifyRequest;
import org.openapitools.client.model.VerifyResult;

public final class VerityFlow {
  private static final Set<String> CALLED = new TreeSet<>();

  interface Call {
    void run() throws ApiException;
  }

  private static void check(boolean condition, String what) {
    if (!condition) throw new IllegalStateException("check failed: " + what);
  }

  private static void step(String operation, String detail) {
    CALLED.add(operation);
    System.out.println("ok " + operation + ": " + detail);
  }

  /** The Error object of a call that must fail with `status` and `code`. */
  private static String failure(int status, String code, Call call) throws Exception {
    try {
      call.run();
    } catch (ApiException e) {
      org.openapitools.client.model.Error body =
          org.openapitools.client.model.Error.fromJson(e.getResponseBody());
      check(e.getCode() == status, "status " + e.getCode() + ", expected " + status);
      check(code.equals(body.getError().getCode()), "code " + body.getError().getCode());
      check(!body.getError().getMessage().isEmpty(), "an error message");
      return status + " " + body.getError().getCode();
    }
    throw new IllegalStateException("expected " + status + " " + code + ", the call succeeded");
  }

  /** Polls the job until it is done (a failed job fails the flow). */
  private static BatchJob finished(BatchApi batch, BatchJob job) throws Exception {
    for (int poll = 0; poll < 600 && job.getStatus() != BatchJob.StatusEnum.DONE; poll++) {
      check(job.getStatus() != BatchJob.StatusEnum.FAILED, "job failed: " + job.getError());
      Thread.sleep(100);
      job = batch.getBatch(job.getId());
    }
    return job;
  }

  private static ApiClient keyed(String apiKey) {
    ApiClient client = new ApiClient();
    ((ApiKeyAuth) client.getAuthentication("ApiKey")).setApiKey(apiKey);
    return client;
  }

  public static void main(String[] args) throws Exception {
    ApiClient adminClient = new ApiClient();
    ((HttpBearerAuth) adminClient.getAuthentication("AdminToken")).setBearerToken(args[0]);
    AdminApi admin = new AdminApi(adminClient);
    CreatedAccount account =
        admin.createAccount(new CreateAccountRequest().name("java okhttp-gson").credits(0L));
    step("createAccount", "account " + account.getAccountId());
    ApiClient client = keyed(account.getApiKey());

    PingResponse ping = new AccountApi(client).ping();
    check(ping.getCreditsRemaining() == 0L && ping.getCreditsUsed() == 0, "0 credits");
    step("ping", "credits_remaining " + ping.getCreditsRemaining());
    EmailApi email = new EmailApi(client);
    EmailValidateRequest jane = new EmailValidateRequest().email("jane.doe@example.com");
    System.out.println(
        "ok error object: " + failure(402, "insufficient_credits", () -> email.validateEmail(jane, null)));
    AccountCredits topUp =
        admin.addCredits(account.getAccountId(), new AddCreditsRequest().amount(100L));
    check(topUp.getCreditsBalance() == 100L, "balance 100 after the top-up");
    step("addCredits", "credits_balance " + topUp.getCreditsBalance());

    EmailResult mail = email.validateEmail(jane, null);
    check(mail.getValidSyntax() && mail.getMxFound() && mail.getCreditsUsed() == 1L, "deliverable");
    step("validateEmail", mail.getInput() + " " + mail.getDeliverability() + " score " + mail.getScore());
    EmailValidateRequest tooLong =
        new EmailValidateRequest().email("a".repeat(1100) + "@example.com");
    System.out.println(
        "ok error object: " + failure(400, "validation_error", () -> email.validateEmail(tooLong, null)));

    PhoneApi phones = new PhoneApi(client);
    PhoneResult phone = phones.validatePhone(new PhoneValidateRequest().phone("+447400123456"));
    check(phone.getValid() && "+447400123456".equals(phone.getE164()), "a valid number");
    check(phone.getHlr() == null, "hlr null offline");
    step("validatePhone", phone.getE164() + " " + phone.getLineType() + " hlr " + phone.getHlr());
    PhoneValidateRequest live = new PhoneValidateRequest().phone("+447400123456").hlr(true);
    System.out.println(
        "ok error object: "
            + failure(503, "service_unavailable", () -> phones.validatePhone(live))
            + " (no HLR provider configured)");

    IpResult ip = new IpApi(client).getIpIntel(new IpIntelRequest().ip("8.8.8.8"), true);
    check(ip.getAsn() == 15169L && ip.getLists() != null && !ip.getLists().isEmpty(), "lists");
    step("getIpIntel", ip.getInput() + " AS" + ip.getAsn() + " " + ip.getLists().size() + " lists");

    VerifyRequest all =
        new VerifyRequest().email("jane.doe@example.com").phone("+447400123456").ip("8.8.8.8");
    VerifyResult verdict = new VerifyApi(client).verify(all, true);
    check(verdict.getCreditsUsed() == 3L && verdict.getEmail().getCreditsUsed() == 1L, "costs 3");
    check(verdict.getPhone().getValid() && verdict.getReasons() != null, "nested and explained");
    step("verify", "fraud_score " + verdict.getFraudScore() + " risk " + verdict.getRisk());

    FeedbackResult reported =
        new VerifyApi(client)
            .reportFeedback(
                new FeedbackRequest()
                    .requestId(verdict.getRequestId())
                    .outcome(FeedbackRequest.OutcomeEnum.FRAUD));
    check(reported.getCreditsUsed() == 0 && reported.getValues().size() == 4, "feedback is free");
    step("reportFeedback", reported.getOutcome() + " of " + reported.getValues());
    FeedbackStats learned = new VerifyApi(client).feedbackStats();
    check(learned.getReliability().size() == 10, "statistics");
    step("feedbackStats", learned.getLabelledCalls() + " labelled calls");

    KeysApi keys = new KeysApi(client);
    IssuedApiKey created = keys.createKey(new CreateKeyRequest().name("generated client"));
    check(created.getKey().startsWith("vrt_live_"), "a key value");
    step("createKey", created.getName() + " " + created.getHint());
    ApiKeyList listed = keys.listKeys();
    check(listed.getData().stream().anyMatch(k -> k.getId().equals(created.getId())), "listed");
    step("listKeys", listed.getData().size() + " keys");
    IssuedApiKey rotated = keys.rotateKey(created.getId());
    check(rotated.getId().equals(created.getId()) && !rotated.getKey().equals(created.getKey()), "new value");
    step("rotateKey", rotated.getHint());
    AccountApi stale = new AccountApi(keyed(created.getKey()));
    System.out.println(
        "ok error object: "
            + failure(401, "unauthorized", stale::ping)
            + " (the value before rotation)");
    keys.deleteKey(created.getId());
    step("deleteKey", "no body");
    System.out.println(
        "ok error object: "
            + failure(404, "not_found", () -> keys.rotateKey(created.getId()))
            + " (the deleted key)");
    IssuedApiKey test =
        keys.createKey(
            new CreateKeyRequest().name("generated ci").mode(CreateKeyRequest.ModeEnum.TEST));
    check(
        test.getKey().startsWith("vrt_test_") && test.getMode() == IssuedApiKey.ModeEnum.TEST,
        "a test key");
    PingResponse testPing = new AccountApi(keyed(test.getKey())).ping();
    check(testPing.getKey().getId().equals(test.getId()), "the test key authenticates");
    step("createKey", test.getName() + " " + test.getMode() + " " + test.getHint());
    keys.deleteKey(test.getId());

    BatchApi batch = new BatchApi(client);
    File csv = File.createTempFile("verity-batch-", ".csv");
    csv.deleteOnExit();
    String[] rows = {"jane.doe@example.com", "not an email", "temp@mailinator.com"};
    Files.writeString(csv.toPath(), String.join("\n", rows) + "\n", StandardCharsets.UTF_8);
    BatchJob job =
        batch.createBatch("email", csv, null, null, null, null, null, null, null, null);
    check(job.getStatus() == BatchJob.StatusEnum.QUEUED && job.getTotalRows() == 3L, "queued");
    step("createBatch", job.getId() + " " + job.getStatus() + " " + job.getTotalRows() + " rows");
    job = finished(batch, job);
    check(job.getStatus() == BatchJob.StatusEnum.DONE && job.getResultUrl() != null, "done");
    step("getBatch", job.getStatus() + " " + job.getProcessedRows() + "/" + job.getTotalRows());
    String sig = URI.create(job.getResultUrl()).getQuery().replaceFirst("^sig=", "");
    String result = batch.downloadBatchResult(job.getId(), sig, null);
    String[] lines = result.strip().split("\n");
    check(lines[0].startsWith("input,valid_syntax,mx_found,disposable,score"), "the header row");
    check(lines.length == rows.length + 1, "one result row per input row");
    step("downloadBatchResult", (lines.length - 1) + " rows: " + lines[1]);
    // The summary counts every row by deliverability; only= keeps the rows of those verdicts.
    BatchJobSummary summary = job.getSummary();
    check(summary != null, "a done job has a summary");
    long counted =
        summary.getDeliverable() + summary.getRisky() + summary.getUndeliverable()
            + summary.getUnknown();
    check(counted == rows.length, "the summary counts every row once");
    check(summary.getUndeliverable() == 1L, "the row that is no address is undeliverable");
    String[] kept = batch.downloadBatchResult(job.getId(), sig, "undeliverable").strip().split("\n");
    check(kept.length == 2 && kept[1].startsWith("not an email,"), "only the undeliverable row");
    step("downloadBatchResult", "only=undeliverable: " + kept[1] + " (summary: " + counted + " rows)");
    String onlyJobId = job.getId();
    System.out.println(
        "ok error object: "
            + failure(400, "validation_error", () -> batch.downloadBatchResult(onlyJobId, sig, "valid"))
            + " (only=valid on an email job)");
    // One character inside the MAC changed (base64url: 8 bytes of expiry, then the MAC).
    String tampered = sig.substring(0, 20) + (sig.charAt(20) == 'A' ? 'B' : 'A') + sig.substring(21);
    String jobId = job.getId();
    System.out.println(
        "ok error object: "
            + failure(403, "forbidden", () -> batch.downloadBatchResult(jobId, tampered, null))
            + " (a tampered sig)");
    System.out.println(
        "ok error object: "
            + failure(404, "not_found", () -> batch.getBatch("job_00000000000000000000000000000000")));
    BatchJobList page = batch.listBatches(1, null, null);
    check(page.getData().size() == 1 && page.getData().get(0).getId().equals(jobId), "newest first");
    check(page.getNextCursor() == null, "a single page");
    step("listBatches", jobId + " " + page.getData().get(0).getFileName());
    String late = failure(422, "unprocessable", () -> batch.cancelBatch(jobId));
    step("cancelBatch", late + " (a done job)");
    // A job of another account (its key and id in args[1], args[2]) that has scored some rows:
    // cancelled, it delivers them at partial_result_url.
    BatchApi theirs = new BatchApi(keyed(args[1]));
    BatchJob stopped = theirs.cancelBatch(args[2]);
    check(
        stopped.getStatus() == BatchJob.StatusEnum.FAILED
            && stopped.getResultUrl() == null
            && stopped.getPartialResultUrl() != null,
        "a cancelled job with its scored rows");
    String partialSig =
        URI.create(stopped.getPartialResultUrl()).getQuery().replaceFirst("^sig=", "");
    String[] scored = theirs.downloadBatchResult(stopped.getId(), partialSig, null).strip().split("\n");
    check(scored.length == stopped.getProcessedRows() + 1, "a header and each scored row");
    step(
        "cancelBatch",
        "partial_result_url: " + (scored.length - 1) + " of " + stopped.getTotalRows() + " rows");

    // A phone list with its country: country_hint for every row, country_column for each row.
    File leads = File.createTempFile("verity-leads-", ".csv");
    leads.deleteOnExit();
    Files.writeString(
        leads.toPath(),
        "name,phone,country\nAnn,06 12 34 56 78,FR\nBo,07400 123456,\n",
        StandardCharsets.UTF_8);
    BatchJob phoneJob =
        batch.createBatch(
            "phone", leads, null, null, "phone", null, null, null, "GB", "country");
    check(
        "GB".equals(phoneJob.getCountryHint()) && phoneJob.getCountryColumn() == 3L,
        "the country fields");
    phoneJob = finished(batch, phoneJob);
    String phoneSig = URI.create(phoneJob.getResultUrl()).getQuery().replaceFirst("^sig=", "");
    String[] phoneLines =
        batch.downloadBatchResult(phoneJob.getId(), phoneSig, null).strip().split("\n");
    check(
        phoneLines.length == 3
            && phoneLines[1].split(",")[3].equals("true")
            && phoneLines[2].split(",")[3].equals("true"),
        "each number valid with its country");
    step(
        "createBatch",
        phoneJob.getId()
            + " country_hint "
            + phoneJob.getCountryHint()
            + " column "
            + phoneJob.getCountryColumn());

    System.out.println("{\"operations\":[\"" + String.join("\",\"", CALLED) + "\"]}");
  }
}
