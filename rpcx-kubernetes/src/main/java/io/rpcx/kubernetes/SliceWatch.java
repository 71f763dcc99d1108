package io.rpcx.kubernetes;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the EndpointSlices of one Kubernetes Service through a fabric8 informer (a list, then a
 * watch, resumed after every disconnection and listed again when the API server asks) and tells
 * every listener the servers to call after each change. The informer keeps its cache while the
 * API server is unreachable, so listeners keep their servers; a failed list or watch is reported
 * to them as a problem and retried with backoff for as long as the watch is open. Calls to the
 * listeners never overlap.
 */
final class SliceWatch implements AutoCloseable {
  private static final Logger logger = LoggerFactory.getLogger(SliceWatch.class);
  /** The label the EndpointSlice controller puts on the slices of a Service. */
  static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

  private final String service;
  private final SliceReader reader;
  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  /** Checks in a row that found the watch down; watchdog thread only. */
  private int downChecks;
  private final SharedIndexInformer<EndpointSlice> informer;
  private final List<ServiceDiscovery.Listener> listeners = new CopyOnWriteArrayList<>();
  /** What was last delivered, {@code null} before the first list; guarded by {@code this}. */
  private List<ServiceEndpoint> delivered;
  private String problem;
  /** Whether the problem reported is the API server's (not the slices'); guarded by this. */
  private boolean apiFailing;
  /** Endpoints skipped and already logged, so that each is logged once while it stays. */
  private Set<String> reported = Set.of();
  private volatile boolean closed;
  /** Completed by the first list, or the first failure to get it. */
  private final CompletableFuture<Void> firstOutcome = new CompletableFuture<>();

  SliceWatch(KubernetesClient client, String namespace, String name, String portName) {
    this.service = namespace + "/" + name;
    this.reader = new SliceReader(service, portName);
    this.client = client;
    this.namespace = namespace;
    this.name = name;
    this.informer =
        client
            .discovery()
            .v1()
            .endpointSlices()
            .inNamespace(namespace)
            .withLabel(SERVICE_NAME_LABEL, name)
            .runnableInformer(0);
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(EndpointSlice slice) {
            refresh();
          }

          @Override
          public void onUpdate(EndpointSlice before, EndpointSlice after) {
            refresh();
          }

          @Override
          public void onDelete(EndpointSlice slice, boolean finalStateUnknown) {
            refresh();
          }

          @Override
          public void onList(String resourceVersion, boolean remainedEmpty) {
            if (remainedEmpty) {
              refresh(); // listed, and there is no slice: a problem to report
            }
          }
        });
    informer.exceptionHandler(
        (started, failure) -> {
          failed(failure);
          return true; // retried with backoff until the watch is closed
        });
  }

  /** Starts listing and watching. */
  void start() {
    // The first list: the events during it come before the informer counts as synced.
    informer.start().thenRun(this::refresh);
  }

  /** Waits up to {@code timeout} for the first list, or the first failure to get it. */
  void awaitFirstList(Duration timeout) {
    try {
      firstOutcome.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      report(
          "the Kubernetes API did not list the EndpointSlices of Service " + service + " within "
              + timeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      throw new IllegalStateException(e); // never completed exceptionally
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Run every few seconds: the informer resumes a broken watch by itself, retrying for ever, but
   * does not say why it fails. A watch down for two checks in a row is diagnosed with one list
   * request of one item (within the same permission), whose failure (an expired token, a
   * missing permission, an unreachable API server) is reported; once the watch is back, the
   * problem is cleared.
   */
  void check() {
    if (closed || !informer.hasSynced()) {
      return;
    }
    if (informer.isWatching()) {
      if (downChecks > 0) {
        downChecks = 0;
        recovered();
      }
      return;
    }
    if (++downChecks >= 2) {
      try {
        client
            .discovery()
            .v1()
            .endpointSlices()
            .inNamespace(namespace)
            .withLabel(SERVICE_NAME_LABEL, name)
            .list(new ListOptionsBuilder().withLimit(1L).build());
      } catch (RuntimeException e) {
        if (!closed && !Thread.currentThread().isInterrupted()) {
          failed(e); // not when the discovery closes under the check
        }
      }
    }
  }

  private synchronized void recovered() {
    if (apiFailing) {
      apiFailing = false;
      logger.info("Watching the EndpointSlices of Service {} again", service);
      problem = null;
      refresh();
    }
  }

  /** Adds {@code listener}, which gets the current list at once if there is one. */
  synchronized void add(ServiceDiscovery.Listener listener) {
    listeners.add(listener);
    if (delivered != null) {
      listener.onEndpoints(delivered);
    }
    if (problem != null) {
      listener.onProblem(problem);
    }
  }

  /** Removes {@code listener}. */
  synchronized void remove(ServiceDiscovery.Listener listener) {
    listeners.remove(listener);
  }

  private synchronized void refresh() {
    if (closed || !informer.hasSynced()) {
      return;
    }
    SliceReader.Reading reading = reader.read(informer.getStore().list());
    Set<String> skipped = new HashSet<>(reading.skipped());
    for (String skip : skipped) {
      if (!reported.contains(skip)) {
        logger.warn("Skipping an endpoint of Service {}: {}", service, skip);
      }
    }
    reported = skipped;
    if (!reading.endpoints().equals(delivered)) {
      delivered = reading.endpoints();
      logger.debug("Service {} lists {}", service, delivered);
      for (ServiceDiscovery.Listener listener : listeners) {
        deliver(listener, delivered);
      }
    }
    if (reading.problem() != null) {
      report(reading.problem());
    } else {
      problem = null;
    }
    firstOutcome.complete(null);
  }

  /** A list or watch failed: said once per distinct problem, and told to the listeners. */
  private void failed(Throwable failure) {
    synchronized (this) {
      apiFailing = true;
    }
    report(describe(failure));
    firstOutcome.complete(null);
  }

  private synchronized void report(String found) {
    if (closed || found.equals(problem)) {
      return;
    }
    problem = found;
    logger.warn(
        "{}{}",
        found,
        delivered == null || delivered.isEmpty()
            ? ""
            : "; keeping the " + delivered.size() + " servers known");
    for (ServiceDiscovery.Listener listener : listeners) {
      try {
        listener.onProblem(found);
      } catch (RuntimeException e) {
        logger.error("A listener of Service {} failed", service, e);
      }
    }
  }

  private void deliver(ServiceDiscovery.Listener listener, List<ServiceEndpoint> endpoints) {
    try {
      listener.onEndpoints(endpoints);
    } catch (RuntimeException e) {
      logger.error("A listener of Service {} failed on {}", service, endpoints, e);
    }
  }

  /** What went wrong with the API server, in a sentence that says what to check. */
  private String describe(Throwable failure) {
    Throwable cause = failure;
    while (!(cause instanceof KubernetesClientException) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    String asking = "listing and watching the EndpointSlices of Service " + service;
    if (cause instanceof KubernetesClientException api && api.getCode() > 0) {
      switch (api.getCode()) {
        case 401:
          return "the Kubernetes API refused the credentials " + asking + " (401 Unauthorized):"
              + " the service account token is missing, expired or not valid";
        case 403:
          return "the Kubernetes API forbids " + asking + " (403 Forbidden): the service account"
              + " needs get, list and watch on endpointslices (API group discovery.k8s.io) in"
              + " its namespace";
        default:
          return "the Kubernetes API answered " + api.getCode() + " " + asking + ": "
              + api.getMessage();
      }
    }
    return "cannot reach the Kubernetes API " + asking + ": " + rootMessage(failure);
  }

  private static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.toString();
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    informer.stop();
  }

  @Override
  public String toString() {
    return "watch of the EndpointSlices of Service " + service;
  }
}
