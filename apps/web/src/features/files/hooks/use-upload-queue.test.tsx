import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestQueryClient } from '../../../../test/utils';
import { getLocalNotifications } from '../../../lib/local-notifications';
import { FakeXhr } from '../testing/fake-xhr';
import { makeMedicalFile } from '../testing/fixtures';
import { useUploadQueue, type UploadDetails, type UploadQueueOptions, type UploadResults } from './use-upload-queue';

const MB = 1024 * 1024;

const DETAILS: UploadDetails = {
  customName: 'Blood work',
  customDate: '2024-03-05',
  providerName: 'Dr. Adams',
  visitLocation: 'City Clinic',
  visitReason: 'Annual check',
  personId: 'mia',
};

function pdf(name: string, size = 12) {
  return new File([new Uint8Array(size)], name, { type: 'application/pdf' });
}

function renderQueue(options: Partial<UploadQueueOptions> = {}) {
  const client = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const onUploaded = vi.fn();
  const onStarted = vi.fn();
  const hook = renderHook(() => useUploadQueue({ limit: 50 * MB, onUploaded, onStarted, ...options }), { wrapper });
  return { ...hook, onUploaded, onStarted };
}

const statuses = (rows: readonly { status: string }[]) => rows.map((row) => row.status);

beforeEach(() => {
  FakeXhr.last = undefined;
  FakeXhr.all = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  localStorage.clear();
});

describe('the upload queue', () => {
  it('choosing files makes a row for each, refuses one over the limit without sending it, and names the first to send', () => {
    const { result, onStarted } = renderQueue({ limit: MB });
    let first: File | undefined;
    act(() => {
      first = result.current.choose([pdf('huge.pdf', MB + 1), pdf('lab.pdf')]);
    });
    expect(first?.name).toBe('lab.pdf');
    expect(statuses(result.current.rows)).toEqual(['too-large', 'ready']);
    expect(result.current.rows[0]?.message).toBe('File is larger than 1 MB');
    expect(result.current.sendable).toBe(1);
    expect(result.current.active).toBe(1);
    expect(onStarted).toHaveBeenCalledTimes(1);
    expect(FakeXhr.all).toHaveLength(0);
  });

  it('choosing nothing keeps what was chosen', () => {
    const { result, onStarted } = renderQueue();
    act(() => void result.current.choose([pdf('lab.pdf')]));
    let first: File | undefined = pdf('x.pdf');
    act(() => {
      first = result.current.choose([]);
    });
    expect(first).toBeUndefined();
    expect(result.current.rows.map((row) => row.file.name)).toEqual(['lab.pdf']);
    expect(onStarted).toHaveBeenCalledTimes(1);
  });

  it('sends one file with the Record Name and the details, reports its progress, and tells everyone once it is stored', async () => {
    const { result, onUploaded } = renderQueue();
    act(() => void result.current.choose([pdf('blood-work.final.pdf')]));
    let done: Promise<UploadResults | null> = Promise.resolve(null);
    act(() => {
      done = result.current.upload(DETAILS);
    });
    expect(result.current.busy).toBe(true);
    const xhr = FakeXhr.last!;
    expect(xhr.url).toBe('/api/user/files');
    expect(Object.fromEntries([...xhr.body!.entries()].filter(([key]) => key !== 'file'))).toEqual({
      personId: 'mia',
      customName: 'Blood work',
      customDate: '2024-03-05',
      visitLocation: 'City Clinic',
      visitReason: 'Annual check',
      providerName: 'Dr. Adams',
    });

    act(() => xhr.progress(30, 120));
    expect(result.current.rows[0]?.status).toBe('uploading');
    expect(result.current.rows[0]?.progress).toEqual({ loaded: 30, total: 120 });

    const stored = makeMedicalFile('f1', 'Blood work');
    xhr.respond(201, stored);
    await act(async () => {
      expect(await done).toEqual({ uploaded: [stored], notUploaded: 0 });
    });
    expect(result.current.busy).toBe(false);
    expect(statuses(result.current.rows)).toEqual(['done']);
    expect(result.current.summary).toBe('1 of 1 file uploaded.');
    expect(result.current.sendable).toBe(0);
    expect(onUploaded).toHaveBeenCalledWith(stored);
    expect(getLocalNotifications()[0]?.text).toMatch(/^File "Blood work" uploaded on /);
  });

  it('several files go one after another, each named after its file; an empty Visit Date sends the current time', async () => {
    const { result, onUploaded } = renderQueue();
    act(() => void result.current.choose([pdf('lab.pdf'), pdf('xray.png')]));
    expect(result.current.active).toBe(2);
    let done: Promise<UploadResults | null> = Promise.resolve(null);
    act(() => {
      done = result.current.upload({ ...DETAILS, customDate: '' });
    });
    expect(FakeXhr.all).toHaveLength(1);
    expect(statuses(result.current.rows)).toEqual(['uploading', 'queued']);
    const first = FakeXhr.all[0]!;
    expect(first.body!.get('customName')).toBe('lab');
    expect(Math.abs(Date.parse(first.body!.get('customDate') as string) - Date.now())).toBeLessThan(60_000);
    first.respond(201, makeMedicalFile('f1', 'lab'));

    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    expect(FakeXhr.all[1]!.body!.get('customName')).toBe('xray');
    FakeXhr.all[1]!.respond(201, makeMedicalFile('f2', 'xray'));
    await act(async () => {
      expect((await done)?.uploaded.map((file) => file.id)).toEqual(['f1', 'f2']);
    });
    expect(result.current.summary).toBe('2 of 2 files uploaded.');
    expect(onUploaded).toHaveBeenCalledTimes(2);
  });

  it('a failure stays beside its file with the server message, and Upload again sends only what did not go', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result } = renderQueue();
    act(() => void result.current.choose([pdf('lab.pdf'), pdf('xray.png')]));
    let done: Promise<UploadResults | null> = Promise.resolve(null);
    act(() => {
      done = result.current.upload(DETAILS);
    });
    FakeXhr.all[0]!.respond(201, makeMedicalFile('f1', 'lab'));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    FakeXhr.all[1]!.respond(413, { message: 'File is larger than 50 MB' });
    await act(async () => {
      expect((await done)?.notUploaded).toBe(1);
    });
    expect(statuses(result.current.rows)).toEqual(['done', 'failed']);
    expect(result.current.rows[1]?.message).toBe('Error uploading file: File is larger than 50 MB');
    expect(result.current.summary).toBe('1 of 2 files uploaded.');
    expect(result.current.sendable).toBe(1);

    act(() => {
      done = result.current.upload(DETAILS);
    });
    expect(FakeXhr.all).toHaveLength(3);
    expect((FakeXhr.all[2]!.body!.get('file') as File).name).toBe('xray.png');
    // One file in this batch: it takes the Record Name.
    expect(FakeXhr.all[2]!.body!.get('customName')).toBe('Blood work');
    expect(result.current.rows[1]?.message).toBeUndefined();
    FakeXhr.all[2]!.respond(201, makeMedicalFile('f2', 'Blood work'));
    await act(async () => {
      expect(await done).toMatchObject({ notUploaded: 0 });
    });
    expect(statuses(result.current.rows)).toEqual(['done', 'done']);
  });

  it('cancel aborts the file under way and the ones still waiting', async () => {
    const { result, onUploaded } = renderQueue();
    act(() => void result.current.choose([pdf('lab.pdf'), pdf('xray.png')]));
    let done: Promise<UploadResults | null> = Promise.resolve(null);
    act(() => {
      done = result.current.upload(DETAILS);
    });
    act(() => result.current.cancel());
    await act(async () => {
      expect(await done).toEqual({ uploaded: [], notUploaded: 2 });
    });
    expect(FakeXhr.all).toHaveLength(1);
    expect(FakeXhr.all[0]!.aborted).toBe(true);
    expect(statuses(result.current.rows)).toEqual(['cancelled', 'cancelled']);
    expect(result.current.summary).toBe('Upload cancelled. 0 of 2 files uploaded.');
    expect(result.current.busy).toBe(false);
    expect(result.current.sendable).toBe(2);
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it('with nothing to send, Upload sends nothing', async () => {
    const { result } = renderQueue({ limit: MB });
    act(() => void result.current.choose([pdf('huge.pdf', MB + 1)]));
    await act(async () => {
      expect(await result.current.upload(DETAILS)).toBeNull();
    });
    expect(FakeXhr.all).toHaveLength(0);
    expect(result.current.busy).toBe(false);
  });
});
