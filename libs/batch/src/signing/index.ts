export {
  assertDownloadToken,
  signDownload,
  verifyDownload,
  type DownloadVerdict,
} from './download.signer';
