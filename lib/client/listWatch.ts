// The transport an Informer lists and watches through. RestClient.listWatch() implements it over
// HTTP; tests implement it with fakes.
import type { ApiList, ApiObject } from '../api/meta';
import type { ListOptions } from './resourcePath';
import type { WatchStream } from './watchStream';

export interface ListWatch<T extends ApiObject = ApiObject> {
  list(opts: ListOptions, signal?: AbortSignal): Promise<ApiList<T>>;
  /** Resolves once the server accepted the watch (or rejects with its error). */
  watch(opts: ListOptions, signal?: AbortSignal): Promise<WatchStream<T>>;
}

/** Narrows a list/watch to a namespace and selectors; the informer's own options win over none. */
export interface ListWatchScope {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}
